import {EditorText} from './editor-text.js';
import {type EditorState, historyAt} from './editor-model.js';
import type {EditorAction} from './key-decoder.js';

/*
 * Ctrl-R: a reverse incremental search of the editor's history, as in a
 * shell. Typing narrows to the newest entry holding the query (ignoring
 * case), Ctrl-R again goes to the next older one, Enter (or any key that
 * moves or edits) takes the entry into the editor, Esc, Ctrl-G or Ctrl-C
 * leave the search with the editor as it was. The editor's state is not
 * touched until an entry is taken, so leaving restores the draft by itself.
 */

export interface HistorySearch {
	readonly query: string;
	/** The history index of the entry shown, or null: none yet (the editor's text is shown). */
	readonly match: number | null;
	/** No older entry holds the query: the line says so and the last match stays shown. */
	readonly failing: boolean;
}

export function startSearch(): HistorySearch {
	return {query: '', match: null, failing: false};
}

/** What the search line shows before the query; the caret goes after the query. */
export function searchLabel(search: HistorySearch): string {
	return search.failing ? 'no older prompt holds: ' : 'search prompts: ';
}

/** The query as one line (a pasted line break is shown, not drawn as a break). */
export function shownQuery(search: HistorySearch): string {
	return search.query.replaceAll('\n', '⏎');
}

/** The text the editor shows meanwhile: the match, or its own text before any. */
export function searchShown(search: HistorySearch, state: EditorState): EditorText {
	return search.match === null ? state.text : EditorText.of(state.history[search.match] ?? '');
}

/** The newest entry at or before `from` that holds `query`, ignoring case. */
function findOlder(history: readonly string[], query: string, from: number): number | null {
	const needle = query.toLowerCase();
	for (let index = Math.min(from, history.length - 1); index >= 0; index--) if (history[index]!.toLowerCase().includes(needle)) return index;
	return null;
}

function seek(search: HistorySearch, history: readonly string[], query: string, from: number): HistorySearch {
	const found = findOlder(history, query, from);
	return found === null ? {query, match: search.match, failing: true} : {query, match: found, failing: false};
}

/** The search after a key, the editor (changed only when an entry is taken), and whether the key still acts on the editor. */
export interface SearchStep {
	search: HistorySearch | null;
	editor: EditorState;
	/** The key took the entry and then does its own work there (a move, an edit). */
	replay: boolean;
}

export function searchKey(search: HistorySearch, editor: EditorState, action: EditorAction): SearchStep {
	const {history} = editor;
	const stay = (next: HistorySearch): SearchStep => ({search: next, editor, replay: false});
	switch (action.type) {
		case 'insert':
			// The current match stays while it still holds the longer query.
			return stay(seek(search, history, search.query + action.text, search.match ?? history.length - 1));
		case 'backspace': {
			const query = Array.from(search.query).slice(0, -1).join('');
			return stay(query === '' ? {query, match: search.match, failing: false} : seek(search, history, query, history.length - 1));
		}

		case 'reverseSearch':
			return stay(seek(search, history, search.query, (search.match ?? history.length) - 1));
		case 'escape':
		case 'cancel':
		case 'ctrlC':
			return {search: null, editor, replay: false};
		case 'submit':
			return {search: null, editor: taken(search, editor), replay: false};
		case 'newline':
			return stay(search);
		default:
			return {search: null, editor: taken(search, editor), replay: true};
	}
}

function taken(search: HistorySearch, editor: EditorState): EditorState {
	return search.match === null ? editor : historyAt(editor, search.match);
}

/** The search once entries came in front of the history (the earlier runs' prompts loaded): its match is the same entry. */
export function shiftSearch(search: HistorySearch, by: number): HistorySearch {
	return search.match === null ? search : {...search, match: Math.max(0, search.match + by)};
}
