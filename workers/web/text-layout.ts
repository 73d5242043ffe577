/**
 * The text a page becomes, built piece by piece as its tags and text come:
 * line breaks asked for before the next text (the larger of those asked,
 * so nested blocks do not stack blank lines), whitespace collapsed as a
 * browser does outside <pre> (across pieces too), nothing at a line's start.
 */
export class TextLayout {
	readonly #out: string[] = [];
	/** Line breaks wanted before the next text. */
	#pending = 0;
	#lineHasText = false;
	/** The last piece ended in a space: a collapsed run of whitespace goes on past it. */
	#endsWithSpace = false;
	#length = 0;

	/** Characters laid out so far. */
	get length(): number {
		return this.#length;
	}

	/** Text of the page; `pre` keeps its whitespace as written. */
	text(raw: string, pre: boolean): void {
		if (pre) {
			if (raw !== '') this.emit(raw);
			return;
		}

		let collapsed = raw.replace(/[ \t\n\r\f]+/g, ' ');
		// Whitespace at a line's start, or right after a space, is nothing to a reader.
		if (this.#pending > 0 || !this.#lineHasText || this.#endsWithSpace) collapsed = collapsed.trimStart();
		if (collapsed !== '') this.emit(collapsed);
	}

	/** A piece of the layout's own (a list marker, a heading's hashes, an image's alt text), after the breaks asked for. */
	emit(piece: string): void {
		if (this.#pending > 0 && this.#out.length > 0) this.#push('\n'.repeat(this.#pending));
		if (this.#pending > 0) this.#lineHasText = false;
		this.#pending = 0;
		this.#push(piece);
		this.#lineHasText ||= piece.trim() !== '';
		this.#endsWithSpace = piece.endsWith(' ');
	}

	/** At least `count` line breaks before the next text. */
	lineBreak(count: number): void {
		this.#pending = Math.max(this.#pending, count);
	}

	/** A forced break (<br>): kept even after another one. */
	forcedBreak(): void {
		this.#push('\n'.repeat(this.#pending + 1));
		this.#pending = 0;
		this.#lineHasText = false;
		this.#endsWithSpace = false;
	}

	/** Whether text is on the current line with no break asked for since. */
	get midLine(): boolean {
		return this.#lineHasText && this.#pending === 0;
	}

	/** The text: no-break spaces as spaces, no spaces before a line break, runs of blank lines (from <br>s) as one. */
	result(): string {
		return this.#out
			.join('')
			.replace(/\u00A0/g, ' ')
			.replace(/[ \t]+\n/g, '\n')
			.replace(/\n{3,}/g, '\n\n')
			.trim();
	}

	#push(piece: string): void {
		this.#out.push(piece);
		this.#length += piece.length;
	}
}
