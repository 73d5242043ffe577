import {EventEmitter} from 'node:events';
import {FrameRows} from './frame-rows.js';

/**
 * The erase a renderer (Ink's log-update) writes before a frame: back to the
 * frame's bottom when the cursor stood in it, then each row erased going up,
 * ending at the top row's first column.
 */
const RENDERER_ERASE = /^(?:\u001B\[\?25l)?(?:\u001B\[\d+B)?(?:\u001B\[1G)?(?:\u001B\[2K\u001B\[1A)*\u001B\[2K\u001B\[G/;

/** Ink's way back down to the frame's bottom row before it erases or moves the cursor: a cursor-down. */
const RETURN_DOWN = /^((?:\u001B\[\?2026h)?\u001B\[\?25l)\u001B\[(\d+)B/;

type WriteCallback = (error?: Error | null) => void;

/**
 * The stream the chat screen draws on: the terminal's stdout, with a resize
 * that erases the live frame as the terminal reflowed it. Ink counts the
 * rows to erase in the geometry it drew with, but a terminal that reflows
 * on resize has rewrapped them, so its count erases rows of the transcript
 * or leaves stale ones; clearing the screen and the scrollback instead would
 * erase what the terminal held before `i` started. So on a resize the frame
 * is erased here (FrameRows knows its rows as reflowed), Ink's own erase of
 * it is dropped, and Ink draws the frame again at the new width; the
 * transcript above is left to the terminal's reflow and never written twice.
 *
 * `rows` stays undefined for Ink on purpose: Ink treats a frame as tall as
 * the screen as full-screen output and then clears the terminal and its
 * scrollback to write the whole transcript again. The screen's height is
 * `terminalRows`.
 */
export class ScreenStream extends EventEmitter {
	readonly #out: NodeJS.WriteStream;
	readonly #frame: FrameRows;
	/** After a resize's erase: the renderer's next erase of the same frame is already done. */
	#eraseDone = false;
	#redraw: (() => void) | undefined;

	constructor(out: NodeJS.WriteStream) {
		super();
		this.#out = out;
		this.#frame = new FrameRows(out.columns || 80);
		out.on('resize', this.#resized);
	}

	get isTTY(): boolean {
		return this.#out.isTTY === true;
	}

	get columns(): number {
		return this.#out.columns || 80;
	}

	get terminalRows(): number {
		return this.#out.rows || 24;
	}

	get writable(): boolean {
		return this.#out.writable;
	}

	get writableEnded(): boolean {
		return this.#out.writableEnded;
	}

	get writableLength(): number {
		return this.#out.writableLength;
	}

	get destroyed(): boolean {
		return this.#out.destroyed;
	}

	/** How the renderer draws its last frame again where it was erased (Ink's write of nothing does: erase, write, redraw). */
	onRedraw(redraw: () => void): () => void {
		this.#redraw = redraw;
		return () => {
			if (this.#redraw === redraw) this.#redraw = undefined;
		};
	}

	write(chunk: string | Uint8Array, encoding?: BufferEncoding | WriteCallback, callback?: WriteCallback): boolean {
		let text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
		const done = typeof encoding === 'function' ? encoding : callback;
		const stripped = this.#eraseDone && RENDERER_ERASE.test(text);
		if (stripped) text = text.replace(RENDERER_ERASE, '');
		// The erase waited for is the renderer's next one, or none once it printed a frame without one.
		if (this.#frame.write(text) || stripped) this.#eraseDone = false;
		// A terminal that drops the rows below the cursor when it gets shorter (xterm.js) clamps a cursor-down at its new
		// bottom, and the erase that follows then climbs into the transcript; line feeds scroll instead, and keep the count.
		const sent = text.replace(RETURN_DOWN, (_, prefix: string, rows: string) => prefix + '\n'.repeat(Number(rows)));
		return done ? this.#out.write(sent, done) : this.#out.write(sent);
	}

	/**
	 * Lends the terminal to another program (a pager) that runs synchronously
	 * in `run`: the live frame is erased first, so the program starts where
	 * the frame began, and drawn again where the program left the cursor
	 * (back in place after one that used the alternate screen, below the
	 * output of one that printed). Nothing above the frame is touched.
	 */
	lend<T>(run: () => T): T {
		this.#out.write(this.#frame.erase());
		this.#eraseDone = true;
		try {
			return run();
		} finally {
			this.#redraw?.();
		}
	}

	/** Stops following the terminal's size. */
	close(): void {
		this.#out.off('resize', this.#resized);
	}

	readonly #resized = () => {
		const columns = this.columns;
		const narrower = columns < this.#frame.columns;
		this.#frame.reflow(columns);
		this.#out.write(this.#frame.erase());
		this.#eraseDone = true;
		// Ink draws afresh only when the width shrank; otherwise its last frame, which fits, is drawn again first.
		if (!narrower) this.#redraw?.();
		this.emit('resize');
	};
}
