import stringWidth from 'string-width';
import {escapeEnd} from './escape-end.js';

/** A row of the terminal: how far its cells are written, and whether it continues the row above (a soft wrap). */
interface Row {
	width: number;
	wrapped: boolean;
}

const ESC = '\u001B';
const TAB_STOP = 8;
const graphemes = new Intl.Segmenter(undefined, {granularity: 'grapheme'});

/**
 * The rows of the renderer's live frame as the terminal holds them, from
 * the frame's top down, and the cursor among them: what is needed to erase
 * the frame after a resize. A terminal that reflows on resize (xterm.js,
 * tmux, iTerm2, VTE, kitty, Windows Terminal) rewraps each line at the new
 * width and keeps the cursor on its character, so the frame's height and
 * the cursor's row in it are computed here instead of counted in the old
 * geometry. The frame begins where the latest write that prints starts
 * printing: a renderer writes each frame in one write, after erasing the
 * one before; rows above it are never touched again and are dropped.
 */
export class FrameRows {
	#columns: number;
	#rows: Row[] = [{width: 0, wrapped: false}];
	#row = 0;
	/** Equal to the width when the last column was written and the next character wraps (pending wrap). */
	#column = 0;
	#saved = {row: 0, column: 0};
	/** An escape sequence cut by the end of a write. */
	#cut = '';

	constructor(columns: number) {
		this.#columns = Math.max(1, columns);
	}

	get columns(): number {
		return this.#columns;
	}

	/** The cursor's row counted from the frame's top. */
	get cursorRow(): number {
		return this.#row;
	}

	/** One write of the renderer, as it reaches the terminal (a line feed also returns the carriage, as the tty's ONLCR does); whether it printed (and so began a frame). */
	write(chunk: string): boolean {
		const text = this.#cut + chunk;
		this.#cut = '';
		let started = false;
		let at = 0;
		while (at < text.length) {
			const code = text.charCodeAt(at);
			if (code === 0x1b) {
				const end = escapeEnd(text, at);
				if (end === -1) {
					this.#cut = text.slice(at);
					return started;
				}

				this.#escape(text.slice(at, end));
				at = end;
				continue;
			}

			if (code < 0x20 || (code >= 0x7f && code < 0xa0)) {
				if (code === 0x0a && !started) started = this.#startFrame();
				this.#control(code);
				at++;
				continue;
			}

			let end = at + 1;
			while (end < text.length && isPrintable(text.charCodeAt(end))) end++;
			if (!started) started = this.#startFrame();
			this.#print(text.slice(at, end));
			at = end;
		}

		return started;
	}

	/** The terminal rewrapped every line at `columns`: the rows and the cursor as it now holds them. */
	reflow(columns: number): void {
		const width = Math.max(1, columns);
		const rows: Row[] = [];
		let cursor = {row: 0, column: 0};
		let line: Row[] = [];
		let offset = -1;
		const flush = () => {
			const length = line.reduce((sum, row) => sum + row.width, 0);
			const count = Math.max(1, Math.ceil(length / width));
			if (offset >= 0) {
				// A cursor just past a line that fills its last row waits there (pending wrap) instead of starting a new row.
				const row = Math.min(count - 1, Math.floor(offset / width));
				cursor = {row: rows.length + row, column: offset - row * width};
				offset = -1;
			}

			for (let index = 0; index < count; index++) {
				rows.push({width: Math.min(width, length - index * width), wrapped: index > 0});
			}

			line = [];
		};

		for (const [index, row] of this.#rows.entries()) {
			if (!row.wrapped && line.length > 0) flush();
			if (index === this.#row) offset = line.reduce((sum, before) => sum + before.width, 0) + Math.min(this.#column, this.#columns);
			line.push(row);
		}

		flush();
		this.#rows = rows;
		this.#columns = width;
		this.#row = cursor.row;
		this.#column = cursor.column;
		this.#ensureRow();
	}

	/** The bytes that erase the frame from the cursor (its top row and everything below), leaving the cursor at the top's first column. */
	erase(): string {
		const up = this.#row > 0 ? `${ESC}[${this.#row}A` : '';
		this.#rows = [{width: 0, wrapped: false}];
		this.#row = 0;
		this.#column = 0;
		return `${ESC}[?25l${up}\r${ESC}[J`;
	}

	#startFrame(): true {
		this.#rows = this.#rows.slice(this.#row);
		this.#rows[0]!.wrapped = false;
		this.#saved = {row: this.#saved.row - this.#row, column: this.#saved.column};
		this.#row = 0;
		return true;
	}

	#print(text: string): void {
		const width = stringWidth(text);
		if (this.#column < this.#columns && this.#column + width <= this.#columns) {
			this.#fill(width);
			return;
		}

		for (const {segment} of graphemes.segment(text)) {
			const cells = stringWidth(segment);
			if (cells === 0) continue;
			if (this.#column + cells > this.#columns) this.#wrap();
			this.#fill(cells);
		}
	}

	#fill(cells: number): void {
		const row = this.#rows[this.#row]!;
		this.#column += cells;
		row.width = Math.max(row.width, Math.min(this.#column, this.#columns));
	}

	#wrap(): void {
		this.#row++;
		this.#column = 0;
		this.#ensureRow();
		this.#rows[this.#row]!.wrapped = true;
	}

	#control(code: number): void {
		if (code === 0x0a || code === 0x0b || code === 0x0c) this.#moveTo(this.#row + 1, 0);
		else if (code === 0x0d) this.#column = 0;
		else if (code === 0x08) this.#column = Math.max(0, Math.min(this.#column, this.#columns - 1) - 1);
		else if (code === 0x09) this.#column = Math.min(this.#columns - 1, (Math.floor(this.#column / TAB_STOP) + 1) * TAB_STOP);
	}

	#escape(sequence: string): void {
		const kind = sequence[1];
		if (kind === '[') this.#csi(sequence);
		else if (kind === '7') this.#saved = {row: this.#row, column: this.#column};
		else if (kind === '8') this.#moveTo(this.#saved.row, this.#saved.column);
		else if (kind === 'D') this.#moveTo(this.#row + 1, this.#column);
		else if (kind === 'E') this.#moveTo(this.#row + 1, 0);
		else if (kind === 'M') this.#moveTo(this.#row - 1, this.#column);
		else if (kind === 'c') this.#clearAll(0, 0);
	}

	#csi(sequence: string): void {
		const final = sequence.at(-1)!;
		const body = sequence.slice(2, -1);
		// Private and intermediate forms (modes, keyboard protocols, synchronized output) do not move the cursor.
		if (!/^[\d;]*$/.test(body)) return;
		const numbers = body.split(';').map(part => Number.parseInt(part, 10));
		const first = Math.max(0, numbers[0] || 0);
		const count = Math.max(1, first);
		const column = Math.min(this.#column, this.#columns - 1);
		const last = this.#columns - 1;
		if (final === 'J') this.#eraseDisplay(first);
		else if (final === 'K') this.#eraseLine(first, column);
		// Placed by the screen's coordinates, which this does not know: what was above is left behind.
		else if (final === 'H' || final === 'f') this.#clearAll(0, Math.min(last, Math.max(1, numbers[1] || 1) - 1));
		else {
			const moves: Record<string, [number, number]> = {
				A: [this.#row - count, column],
				B: [this.#row + count, column],
				C: [this.#row, Math.min(last, column + count)],
				D: [this.#row, Math.max(0, column - count)],
				E: [this.#row + count, 0],
				F: [this.#row - count, 0],
				G: [this.#row, Math.min(last, count - 1)],
			};
			const move = moves[final];
			if (move) this.#moveTo(...move);
		}
	}

	#eraseDisplay(mode: number): void {
		if (mode === 0) {
			this.#rows.length = this.#row + 1;
			this.#eraseLine(0, Math.min(this.#column, this.#columns - 1));
		} else if (mode === 1) {
			for (const row of this.#rows.slice(0, this.#row)) row.width = 0;
		} else {
			for (const row of this.#rows) row.width = 0;
		}
	}

	#eraseLine(mode: number, column: number): void {
		const row = this.#rows[this.#row]!;
		if (mode === 0) row.width = Math.min(row.width, column);
		else if (mode === 2 || row.width <= column + 1) row.width = 0;
	}

	#clearAll(row: number, column: number): void {
		this.#rows = [{width: 0, wrapped: false}];
		this.#row = row;
		this.#column = column;
		this.#ensureRow();
	}

	#moveTo(row: number, column: number): void {
		// Nothing above the frame's top is known; a renderer never goes there.
		this.#row = Math.max(0, row);
		this.#column = column;
		this.#ensureRow();
	}

	#ensureRow(): void {
		while (this.#rows.length <= this.#row) this.#rows.push({width: 0, wrapped: false});
	}
}

function isPrintable(code: number): boolean {
	return code >= 0x20 && code !== 0x7f && code !== 0x1b && !(code >= 0x80 && code < 0xa0);
}
