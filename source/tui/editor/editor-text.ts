/*
 * The editor's text as an immutable list of pieces. A keystroke in a 1 MB
 * buffer then copies one piece and the list of references, instead of the
 * whole string, which a plain string pays (allocation and page faults) on
 * every edit.
 */

/** An edit copies at most about this many code units of text. */
export const PIECE = 2048;

function split(text: string): string[] {
	if (text.length <= PIECE) return text === '' ? [] : [text];
	const pieces: string[] = [];
	for (let start = 0; start < text.length; start += PIECE) pieces.push(text.slice(start, start + PIECE));
	return pieces;
}

export class EditorText {
	static readonly empty = new EditorText([]);

	static of(text: string): EditorText {
		if (text === '') return EditorText.empty;
		const result = new EditorText(split(text));
		result.joined = text;
		return result;
	}

	readonly length: number;
	private readonly starts: number[];
	private joined: string | undefined;

	private constructor(private readonly pieces: readonly string[]) {
		this.starts = new Array<number>(pieces.length);
		let offset = 0;
		for (let index = 0; index < pieces.length; index++) {
			this.starts[index] = offset;
			offset += pieces[index]!.length;
		}

		this.length = offset;
	}

	/** The whole text, built by concatenation so that V8 keeps it as a rope until something reads its characters. */
	toString(): string {
		if (this.joined === undefined) {
			let joined = '';
			for (const piece of this.pieces) joined += piece;
			this.joined = joined;
		}

		return this.joined;
	}

	slice(from: number, to: number = this.length): string {
		from = Math.max(0, from);
		to = Math.min(this.length, to);
		if (from >= to) return '';
		let index = this.locate(from);
		let result = '';
		while (index < this.pieces.length && this.starts[index]! < to) {
			const start = this.starts[index]!;
			result += this.pieces[index]!.slice(Math.max(0, from - start), to - start);
			index++;
		}

		return result;
	}

	/** The text with [from, to) replaced by `insert`. */
	replace(from: number, to: number, insert: string): EditorText {
		if (this.pieces.length === 0) return EditorText.of(insert);
		const first = this.locate(from);
		const last = this.locate(Math.max(from, to - 1));
		const middle = this.pieces[first]!.slice(0, from - this.starts[first]!) + insert + this.pieces[last]!.slice(to - this.starts[last]!);
		return new EditorText([...this.pieces.slice(0, first), ...split(middle), ...this.pieces.slice(last + 1)]);
	}

	/** An offset up to which this text and `other` are certainly the same (edits share their untouched pieces). */
	sharedPrefix(other: EditorText): number {
		let index = 0;
		while (index < this.pieces.length && index < other.pieces.length && this.pieces[index] === other.pieces[index]) index++;
		return index < this.pieces.length ? this.starts[index]! : this.length;
	}

	/** The start of the logical line holding `offset`. */
	lineStart(offset: number): number {
		for (let index = Math.min(this.locate(offset), this.pieces.length - 1); index >= 0; index--) {
			const local = Math.min(this.pieces[index]!.length, offset - this.starts[index]!);
			if (local <= 0) continue;
			const found = this.pieces[index]!.lastIndexOf('\n', local - 1);
			if (found !== -1) return this.starts[index]! + found + 1;
		}

		return 0;
	}

	/** The end (the newline's offset, or the text's length) of the logical line holding `offset`. */
	lineEnd(offset: number): number {
		for (let index = this.locate(offset); index < this.pieces.length; index++) {
			const found = this.pieces[index]!.indexOf('\n', Math.max(0, offset - this.starts[index]!));
			if (found !== -1) return this.starts[index]! + found;
		}

		return this.length;
	}

	/** The piece holding `offset` (the last piece for the end of the text). */
	private locate(offset: number): number {
		let low = 0;
		let high = this.pieces.length - 1;
		while (low < high) {
			const middle = (low + high + 1) >> 1;
			if (this.starts[middle]! <= offset) low = middle;
			else high = middle - 1;
		}

		return low;
	}
}
