import {EditorText} from './editor-text.js';
import {MAX_CLUSTER, firstCertainBoundary, forEachCluster, lastCertainBoundary} from './editor-graphemes.js';
import {type Geometry, caretInLine, contentWidth, offsetAt, wrapLine} from './editor-layout.js';

/*
 * The input editor's state and its operations: pure functions from a state to
 * the next, no terminal, no React. The caret is a UTF-16 offset that is always
 * on a grapheme-cluster boundary (a cluster index would need the whole text
 * segmented to find its place in the string); every operation looks at the
 * clusters near the caret only, so a 1 MB buffer costs no more per key than a
 * short one.
 *
 * Home/End (Ctrl-A/E) and the kill keys work on the logical line (up to the
 * newline), as in readline; Up/Down move between visual rows, keeping the
 * display column, and at the first or last row they walk the history.
 */

export interface EditorState {
	readonly text: EditorText;
	/** UTF-16 offset into the text, always on a cluster boundary. */
	readonly caret: number;
	/** The display column a run of Up/Down aims for. */
	readonly goal: number | null;
	/** Submitted texts, oldest first. */
	readonly history: readonly string[];
	/** The entry shown; history.length while the draft is. */
	readonly historyIndex: number;
	/** The draft, kept while history entries are shown. */
	readonly draft: EditorText;
}

export function createEditor(history: readonly string[] = [], text = ''): EditorState {
	const content = EditorText.of(text);
	// A copy: the caller's list may change under us, and the index must keep matching it.
	return {text: content, caret: content.length, goal: null, history: [...history], historyIndex: history.length, draft: EditorText.empty};
}

export function textOf(state: EditorState): string {
	return state.text.toString();
}

/** Cluster boundaries from a certain boundary before `offset` to one after it. */
function boundariesNear(text: EditorText, offset: number): number[] {
	for (let radius = 32; ; radius *= 4) {
		const from = Math.max(0, offset - radius);
		const to = Math.min(text.length, offset + radius);
		const window = text.slice(from, to);
		const local = offset - from;
		const start = from === 0 ? 0 : lastCertainBoundary(window, 0, local);
		const end = to === text.length ? window.length : firstCertainBoundary(window, local, window.length);
		if ((start !== -1 && end !== -1) || radius > MAX_CLUSTER) {
			const first = Math.max(0, start);
			const breaks = [from + first];
			forEachCluster(window, first, end === -1 ? window.length : end, (_, clusterEnd) => {
				breaks.push(from + clusterEnd);
			});
			return breaks;
		}
	}
}

function previousBoundary(text: EditorText, offset: number): number {
	if (offset <= 0) return 0;
	return boundariesNear(text, offset).findLast(at => at < offset) ?? 0;
}

function nextBoundary(text: EditorText, offset: number): number {
	if (offset >= text.length) return text.length;
	return boundariesNear(text, offset).find(at => at > offset) ?? text.length;
}

/** `offset` if it is a boundary, else the one before (edits can make neighbours join, e.g. two regional indicators). */
function boundaryAtOrBefore(text: EditorText, offset: number): number {
	return boundariesNear(text, offset).findLast(at => at <= offset) ?? 0;
}

function boundaryAtOrAfter(text: EditorText, offset: number): number {
	return boundariesNear(text, offset).find(at => at >= offset) ?? text.length;
}

function moved(state: EditorState, caret: number): EditorState {
	return caret === state.caret && state.goal === null ? state : {...state, caret, goal: null};
}

/** An edit makes the buffer the draft again, so browsing history never loses it. */
function edited(state: EditorState, text: EditorText, caret: number): EditorState {
	return {...state, text, caret, goal: null, historyIndex: state.history.length, draft: EditorText.empty};
}

function remove(state: EditorState, from: number, to: number): EditorState {
	if (from >= to) return state;
	const text = state.text.replace(from, to, '');
	return edited(state, text, boundaryAtOrBefore(text, from));
}

/** Inserts text at the caret; CR LF and lone CR become newlines. */
export function insert(state: EditorState, input: string): EditorState {
	const clean = input.includes('\r') ? input.replace(/\r\n?/g, '\n') : input;
	if (clean === '') return state;
	const text = state.text.replace(state.caret, state.caret, clean);
	return edited(state, text, boundaryAtOrAfter(text, state.caret + clean.length));
}

export function backspace(state: EditorState): EditorState {
	return remove(state, previousBoundary(state.text, state.caret), state.caret);
}

export function deleteForward(state: EditorState): EditorState {
	return remove(state, state.caret, nextBoundary(state.text, state.caret));
}

export function moveLeft(state: EditorState): EditorState {
	return moved(state, previousBoundary(state.text, state.caret));
}

export function moveRight(state: EditorState): EditorState {
	return moved(state, nextBoundary(state.text, state.caret));
}

export function lineStart(state: EditorState): EditorState {
	return moved(state, state.text.lineStart(state.caret));
}

export function lineEnd(state: EditorState): EditorState {
	return moved(state, state.text.lineEnd(state.caret));
}

const words = new Intl.Segmenter(undefined, {granularity: 'word'});
/** How far a word jump looks; a longer "word" (a base64 blob) is crossed in steps of this. */
const WORD_REACH = 256;

/** The start of the word before `offset` (ICU word segments: CJK text splits into dictionary words). */
function wordStartBefore(text: EditorText, offset: number): number {
	const from = Math.max(0, offset - WORD_REACH);
	const window = text.slice(from, offset);
	const start = from === 0 ? 0 : Math.max(0, firstCertainBoundary(window, 0, window.length));
	let target = from + start;
	for (const segment of words.segment(window.slice(start))) if (segment.isWordLike) target = from + start + segment.index;
	return boundaryAtOrBefore(text, target);
}

/** The end of the word after `offset`. */
function wordEndAfter(text: EditorText, offset: number): number {
	const to = Math.min(text.length, offset + WORD_REACH);
	const window = text.slice(offset, to);
	const cut = to === text.length ? window.length : lastCertainBoundary(window, 0, window.length);
	const end = cut === -1 ? window.length : cut;
	for (const segment of words.segment(window.slice(0, end))) {
		if (segment.isWordLike) return boundaryAtOrAfter(text, offset + segment.index + segment.segment.length);
	}

	return boundaryAtOrAfter(text, offset + end);
}

export function wordLeft(state: EditorState): EditorState {
	return moved(state, wordStartBefore(state.text, state.caret));
}

export function wordRight(state: EditorState): EditorState {
	return moved(state, wordEndAfter(state.text, state.caret));
}

/** Ctrl-W: the word before the caret (and the blanks after it). */
export function deleteWordBefore(state: EditorState): EditorState {
	return remove(state, wordStartBefore(state.text, state.caret), state.caret);
}

/** Ctrl-K: to the end of the logical line; at its end, the newline (joining the next line). */
export function killToLineEnd(state: EditorState): EditorState {
	const end = state.text.lineEnd(state.caret);
	return remove(state, state.caret, end === state.caret ? Math.min(state.text.length, end + 1) : end);
}

/** Ctrl-U: to the start of the logical line; at its start, the newline before it. */
export function killToLineStart(state: EditorState): EditorState {
	const start = state.text.lineStart(state.caret);
	return remove(state, start === state.caret ? Math.max(0, start - 1) : start, state.caret);
}

/** Up: the visual row above at the same display column; from the first row, the previous history entry. */
export function moveUp(state: EditorState, geometry: Geometry): EditorState {
	const columns = contentWidth(geometry);
	const {rows, index, column} = caretInLine(state.text, state.caret, columns, 0);
	const goal = state.goal ?? column;
	if (index > 0) return {...state, caret: offsetAt(state.text, rows[index - 1]!, goal), goal};
	const start = rows[0]!.start;
	if (start === 0) return historyPrevious(state);
	const above = wrapLine(state.text, state.text.lineStart(start - 1), start - 1, columns);
	return {...state, caret: offsetAt(state.text, above[above.length - 1]!, goal), goal};
}

/** Down: the visual row below at the same display column; from the last row, the next history entry. */
export function moveDown(state: EditorState, geometry: Geometry): EditorState {
	const columns = contentWidth(geometry);
	const {rows, index, column} = caretInLine(state.text, state.caret, columns, 1);
	const goal = state.goal ?? column;
	if (index < rows.length - 1) return {...state, caret: offsetAt(state.text, rows[index + 1]!, goal), goal};
	const end = rows[rows.length - 1]!.end;
	if (end === state.text.length) return historyNext(state);
	const below = wrapLine(state.text, end + 1, state.text.lineEnd(end + 1), columns, {offset: end + 1, rowsAfter: 0});
	return {...state, caret: offsetAt(state.text, below[0]!, goal), goal};
}

/** The previous entry, caret at the end of its first line (so Up again goes further back); the draft is kept. */
export function historyPrevious(state: EditorState): EditorState {
	if (state.historyIndex === 0) return state;
	const historyIndex = state.historyIndex - 1;
	const text = EditorText.of(state.history[historyIndex]!);
	const draft = state.historyIndex === state.history.length ? state.text : state.draft;
	return {...state, text, caret: text.lineEnd(0), goal: null, historyIndex, draft};
}

/** The next entry, caret at its end; past the newest entry, the draft comes back. */
export function historyNext(state: EditorState): EditorState {
	if (state.historyIndex >= state.history.length) return state;
	const historyIndex = state.historyIndex + 1;
	const isDraft = historyIndex === state.history.length;
	const text = isDraft ? state.draft : EditorText.of(state.history[historyIndex]!);
	return {...state, text, caret: text.length, goal: null, historyIndex, draft: isDraft ? EditorText.empty : state.draft};
}

/** Entry `index` (a search's match), caret at its end; the draft is kept for ↓ to bring back. */
export function historyAt(state: EditorState, index: number): EditorState {
	const text = EditorText.of(state.history[index]!);
	const draft = state.historyIndex === state.history.length ? state.text : state.draft;
	return {...state, text, caret: text.length, goal: null, historyIndex: index, draft};
}

/**
 * The history with `earlier` in place of its first `base` entries (the
 * earlier runs' prompts, loaded after the editor came): the entries sent
 * since stay after them, a repeat at the join once.
 */
export function rebaseHistory(state: EditorState, base: number, earlier: readonly string[]): EditorState {
	const own = state.history.slice(base);
	const history = own.length > 0 && earlier.at(-1) === own[0] ? [...earlier, ...own.slice(1)] : [...earlier, ...own];
	// Counted from the end, the entry shown (or the draft) stays the one shown.
	const historyIndex = Math.max(0, history.length - (state.history.length - state.historyIndex));
	return {...state, history, historyIndex};
}

/** The text to send and the emptied editor, with the text added to the history (blank texts and repeats are not). */
export function submit(state: EditorState): {state: EditorState; text: string} {
	const text = textOf(state);
	const history = text.trim() === '' || state.history.at(-1) === text ? state.history : [...state.history, text];
	return {text, state: {text: EditorText.empty, caret: 0, goal: null, history, historyIndex: history.length, draft: EditorText.empty}};
}

/** Replaces the whole text (completion), caret at the end. */
export function setText(state: EditorState, text: string): EditorState {
	const content = EditorText.of(text);
	return edited(state, content, content.length);
}

/** Replaces offsets `from`–`to` with `text`, the caret after it (the @ picker's choice). */
export function replaceRange(state: EditorState, from: number, to: number, text: string): EditorState {
	const content = state.text.replace(from, to, text);
	return edited(state, content, boundaryAtOrAfter(content, from + text.length));
}
