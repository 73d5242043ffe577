/**
 * `@path` mentions in a prompt (docs/chat-screen.md). A mention is an
 * `@` at the start of a word (the text's start, after white space or after
 * one of `( [ { < " '`) followed by a path: either up to the next white
 * space, its trailing punctuation (`. , ; : ! ? ) ] } > ' "`) left out, or
 * quoted, `@"a path with spaces"`, up to the closing quote on the same line.
 * An `@` inside a word (an e-mail address, `a@b`) is never one. Whether a
 * mention names a file is decided later (attach-mentions.ts): `@types/node`
 * that is no file stays plain text.
 *
 * `\@` at the start of a word keeps the `@` plain: the backslash is dropped
 * from the text sent, and nothing is attached.
 */

export interface Mention {
	/** Offset of the `@` in the unescaped text. */
	start: number;
	/** Offset just after the mention (its closing quote, or its last path character). */
	end: number;
	/** The path as written, without quotes or trailing punctuation. */
	path: string;
}

export interface ParsedPrompt {
	/** The prompt with each word-start `\@` made a plain `@`. */
	text: string;
	mentions: Mention[];
}

const OPENERS = new Set(['(', '[', '{', '<', '"', "'"]);
const TRAILING = new Set(['.', ',', ';', ':', '!', '?', ')', ']', '}', '>', "'", '"']);

/** Whether offset `index` of `text` starts a word: the text's start, after white space or an opening bracket or quote. */
export function isWordStart(text: string, index: number): boolean {
	if (index === 0) return true;
	const before = text[index - 1]!;
	return /\s/.test(before) || OPENERS.has(before);
}

export function parseMentions(prompt: string): ParsedPrompt {
	// Fast path: most prompts mention nothing.
	if (!prompt.includes('@')) return {text: prompt, mentions: []};
	let text = '';
	const mentions: Mention[] = [];
	let index = 0;
	while (index < prompt.length) {
		const character = prompt[index]!;
		if (character === '\\' && prompt[index + 1] === '@' && isWordStart(prompt, index)) {
			// The escape: a plain `@`, and the word after it is copied as it is.
			const word = wordEnd(prompt, index + 1);
			text += prompt.slice(index + 1, word);
			index = word;
			continue;
		}

		if (character === '@' && isWordStart(prompt, index)) {
			const found = readMention(prompt, index);
			if (found) {
				mentions.push({start: text.length, end: text.length + (found.end - index), path: found.path});
				text += prompt.slice(index, found.end);
				index = found.end;
				continue;
			}
		}

		text += character;
		index++;
	}

	return {text, mentions};
}

/** The mention whose `@` is at `at`, or null when none starts there. */
function readMention(text: string, at: number): {end: number; path: string} | null {
	if (text[at + 1] === '"') {
		const close = text.indexOf('"', at + 2);
		const newline = text.indexOf('\n', at + 2);
		if (close === -1 || (newline !== -1 && newline < close) || close === at + 2) return null;
		return {end: close + 1, path: text.slice(at + 2, close)};
	}

	let end = wordEnd(text, at + 1);
	while (end > at + 1 && TRAILING.has(text[end - 1]!)) end--;
	if (end === at + 1) return null;
	return {end, path: text.slice(at + 1, end)};
}

function wordEnd(text: string, from: number): number {
	let end = from;
	while (end < text.length && !/\s/.test(text[end]!)) end++;
	return end;
}

/**
 * The mention being typed at the caret, for the editor's file picker: the
 * `@` at a word start before the caret with no white space between (or an
 * open `@"…` quote on the same line). `query` is what follows the `@` up to
 * the caret, quotes left out.
 */
export function mentionAtCaret(text: string, caret: number): {start: number; query: string; quoted: boolean} | null {
	// Only the current line matters, and at most a path's length of it.
	const from = Math.max(0, caret - 1024);
	for (let index = caret - 1; index >= from; index--) {
		const character = text[index]!;
		if (character === '\n') return null;
		if (character === '@' && isWordStart(text, index) && text[index - 1] !== '\\') {
			const after = text.slice(index + 1, caret);
			if (after.startsWith('"')) {
				const query = after.slice(1);
				return query.includes('"') ? null : {start: index, query, quoted: true};
			}

			return /\s/.test(after) ? null : {start: index, query: after, quoted: false};
		}
	}

	return null;
}

/** How the picker writes a chosen path: `@path`, quoted when it has white space or ends in what a plain mention leaves out. */
export function mentionText(relative: string): string {
	return /\s/.test(relative) || TRAILING.has(relative.at(-1) ?? '') ? `@"${relative}"` : `@${relative}`;
}
