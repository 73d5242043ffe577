/** A bracketed paste of more lines than this shows in the editor as one placeholder, `[pasted 300 lines #1]`. */
export const PASTE_PLACEHOLDER_LINES = 10;

const placeholderPattern = /\[pasted \d+ lines #\d+\]/g;
/** Longer than any placeholder: the window looked at beside the caret when a key deletes. */
const PLACEHOLDER_WINDOW = 64;

/**
 * The editor's long pastes: each is kept whole and the editor holds a short
 * placeholder in its place, numbered from 1 for as long as the editor lives.
 * At submit every placeholder still in the text becomes its paste again,
 * exactly as pasted; one that was edited into something else stays text.
 */
export class PastePlaceholders {
	readonly #texts = new Map<string, string>();
	#next = 1;

	/** What the editor inserts for a paste: the text itself, or a placeholder for one of more than `PASTE_PLACEHOLDER_LINES` lines. */
	take(text: string): string {
		const lines = countLines(text);
		if (lines <= PASTE_PLACEHOLDER_LINES) return text;
		const placeholder = `[pasted ${lines} lines #${this.#next++}]`;
		this.#texts.set(placeholder, text);
		return placeholder;
	}

	/** `text` with each known placeholder replaced by its paste (in one pass, so a paste holding a placeholder's words stays as pasted). */
	expand(text: string): string {
		if (this.#texts.size === 0 || !text.includes('[pasted ')) return text;
		return text.replaceAll(placeholderPattern, match => this.#texts.get(match) ?? match);
	}

	/** Where a known placeholder ending at the end of `before` starts in it, or null (Backspace deletes it whole). */
	endingAt(before: string): number | null {
		const found = [...before.slice(-PLACEHOLDER_WINDOW).matchAll(placeholderPattern)].at(-1);
		if (!found || !this.#texts.has(found[0])) return null;
		const start = before.length - Math.min(before.length, PLACEHOLDER_WINDOW) + found.index;
		return start + found[0].length === before.length ? start : null;
	}

	/** The length of a known placeholder at the start of `after`, or null (Delete deletes it whole). */
	startingAt(after: string): number | null {
		const found = after.slice(0, PLACEHOLDER_WINDOW).match(placeholderPattern);
		const first = found?.[0];
		return first !== undefined && after.startsWith(first) && this.#texts.has(first) ? first.length : null;
	}

	/** The text was sent or emptied: the pastes are no longer needed (numbers go on). */
	clear(): void {
		this.#texts.clear();
	}
}

/** Lines as a person counts them: a final line break ends the last line rather than starting another. */
function countLines(text: string): number {
	let lines = 1;
	for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
	return text.endsWith('\n') ? lines - 1 : lines;
}

/** The window of text before and after `caret` that `endingAt` and `startingAt` look at. */
export function aroundCaret(text: {slice(from: number, to: number): string; length: number}, caret: number): {before: string; after: string} {
	return {before: text.slice(Math.max(0, caret - PLACEHOLDER_WINDOW), caret), after: text.slice(caret, Math.min(text.length, caret + PLACEHOLDER_WINDOW))};
}
