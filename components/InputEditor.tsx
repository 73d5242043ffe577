import {memo, useCallback, useLayoutEffect, useMemo, useRef, useState} from 'react';
import {Box, Text, useCursor, useStdout, type DOMElement} from 'ink';
import stringWidth from 'string-width';
import type {EditorText} from '../source/tui/editor/editor-text.js';
import type {EditorAction} from '../source/tui/editor/key-decoder.js';
import {type View, rowText, viewport} from '../source/tui/editor/editor-layout.js';
import {type EditorState, createEditor, deleteForward, insert, moveDown, moveUp, rebaseHistory, replaceRange, setText, submit, textOf} from '../source/tui/editor/editor-model.js';
import {applyEditKey} from '../source/tui/editor/editor-actions.js';
import {type HistorySearch, searchKey, searchLabel, searchShown, shiftSearch, shownQuery, startSearch} from '../source/tui/editor/history-search.js';
import type {DraftRequest} from '../source/tui/editor-draft.js';
import {PastePlaceholders, aroundCaret} from '../source/tui/editor/paste-placeholders.js';
import {HistorySearchLine} from './HistorySearchLine.js';
import {useRawInput} from './use-raw-input.js';
import {terminalRows} from './use-terminal-size.js';

export interface InputEditorProps {
	/** Drawn before the first row; later rows are indented by its width. */
	prompt?: string;
	/** Columns the editor may use, prompt included (usually the terminal's). */
	width: number;
	/** Listens to the keyboard and shows the terminal cursor at the caret. */
	isActive: boolean;
	placeholder?: string;
	/** Rows shown at most; longer text scrolls with the caret. Defaults to half the terminal's height. */
	maxRows?: number;
	/**
	 * Earlier submitted texts, oldest first; it records later ones itself. A
	 * new list later (the earlier runs' prompts, loaded behind the first
	 * frame) takes the place of the one before, ahead of what was sent since.
	 */
	history?: readonly string[];
	/** Enter. Return false to refuse the text: it stays in the editor and out of the history. */
	onSubmit(text: string): boolean | void;
	/** Every edit, with the whole text, pastes in place of their placeholders. A 1 MB paste is a 1 MB string: test its length before scanning it. */
	onChange?(text: string): void;
	/** Esc. */
	onInterrupt?(): void;
	/** ↑ on an empty editor: a text returned goes in the editor in place of the history's (the last queued message). */
	onRecall?(): string | undefined;
	/** Ctrl-C, after the editor emptied itself; `hadText` says whether there was anything to empty. */
	onCtrlC?(hadText: boolean): void;
	/** Ctrl-D on an empty editor (elsewhere it deletes forward). */
	onCtrlD?(): void;
	/** Ctrl-Z. */
	onSuspend?(): void;
	/** Tab, with the text; a string returned replaces the text (completion). */
	onTab?(text: string): string | undefined;
	/** Ctrl-O (the chat screen shows the whole transcript in the pager); the text stays as it is. */
	onTranscript?(): void;
	/** Shift+Tab (the chat screen cycles the permission mode); the text stays as it is. */
	onShiftTab?(): void;
	/** A text the screen puts in the editor (a rewound prompt): taken once per request, in place of what is there. */
	draft?: DraftRequest | null;
	/** The text or the caret moved (the @ picker follows the word at the caret). */
	onCaret?(text: string, caret: number): void;
	/**
	 * While a list under the editor is open (the @ picker), it sees these keys
	 * first: `{from, to, text}` replaces that range (caret after it), true
	 * takes the key without an edit, false passes it to the editor.
	 */
	onListKey?(key: ListKey, text: string, caret: number): {from: number; to: number; text: string} | boolean;
}

export type ListKey = 'up' | 'down' | 'tab' | 'submit' | 'escape';
const listKeys: ReadonlySet<string> = new Set<ListKey>(['up', 'down', 'tab', 'submit', 'escape']);

/** The editor's row within Ink's live output: its own top plus its ancestors' (a yoga layout walk). */
function rowInOutput(node: DOMElement): number {
	let top = 0;
	for (let current: DOMElement | undefined = node; current?.yogaNode; current = current.parentNode) top += current.yogaNode.getComputedTop();
	return top;
}

function step(state: EditorState, action: EditorAction, props: InputEditorProps, promptWidth: number, pastes: PastePlaceholders): EditorState {
	const geometry = {width: props.width, promptWidth};
	if (props.onListKey && listKeys.has(action.type)) {
		const taken = props.onListKey(action.type as ListKey, textOf(state), state.caret);
		if (taken === true) return state;
		if (taken !== false) return replaceRange(state, taken.from, taken.to, taken.text);
	}

	switch (action.type) {
		case 'newline':
			return insert(state, '\n');
		case 'insert':
			return insert(state, action.paste ? pastes.take(action.text) : action.text);
		case 'backspace':
		case 'delete':
			return deletePlaceholder(state, action.type, pastes) ?? applyEditKey(state, action) ?? state;
		case 'submit': {
			// The pastes go whole, to the model and to the history.
			const text = textOf(state);
			const whole = pastes.expand(text);
			const submitted = submit(whole === text ? state : setText(state, whole));
			if (props.onSubmit(submitted.text) === false) return state;
			pastes.clear();
			return submitted.state;
		}

		case 'up': {
			const recalled = state.text.length === 0 ? props.onRecall?.() : undefined;
			return recalled === undefined ? moveUp(state, geometry) : setText(state, recalled);
		}

		case 'down':
			return moveDown(state, geometry);
		case 'ctrlC': {
			const hadText = state.text.length > 0;
			const next = hadText ? setText(state, '') : state;
			props.onCtrlC?.(hadText);
			return next;
		}

		case 'ctrlD':
			if (state.text.length > 0) return deleteForward(state);
			props.onCtrlD?.();
			return state;
		case 'escape':
			props.onInterrupt?.();
			return state;
		case 'suspend':
			props.onSuspend?.();
			return state;
		case 'tab': {
			const completed = props.onTab?.(textOf(state));
			return completed === undefined ? state : setText(state, completed);
		}

		case 'shiftTab':
			props.onShiftTab?.();
			return state;
		case 'transcript':
			props.onTranscript?.();
			return state;
		default:
			return applyEditKey(state, action) ?? state;
	}
}

/** Backspace just after a paste's placeholder, or Delete just before one, deletes all of it, and with it the paste; null: an ordinary key. */
function deletePlaceholder(state: EditorState, key: 'backspace' | 'delete', pastes: PastePlaceholders): EditorState | null {
	const {before, after} = aroundCaret(state.text, state.caret);
	if (key === 'backspace') {
		const start = pastes.endingAt(before);
		return start === null ? null : replaceRange(state, state.caret - before.length + start, state.caret, '');
	}

	const length = pastes.startingAt(after);
	return length === null ? null : replaceRange(state, state.caret, state.caret + length, '');
}

interface RowsProps {
	text: EditorText;
	view: View;
	prompt: string;
	promptWidth: number;
	placeholder: string | undefined;
}

/** The visible rows; memoised, so a parent's re-render (a streaming answer) redraws nothing here. */
const Rows = memo(function Rows({text, view, prompt, promptWidth, placeholder}: RowsProps) {
	const blank = ' '.repeat(promptWidth);
	const mark = (symbol: string) => (promptWidth === 0 ? '' : symbol + ' '.repeat(promptWidth - 1));
	if (text.length === 0) {
		return (
			<Text wrap="truncate-end">
				{prompt}
				{placeholder ? <Text dimColor>{placeholder}</Text> : null}
			</Text>
		);
	}

	return (
		<>
			{view.rows.map((row, index) => {
				const gutter = row.start === 0 ? prompt : index === 0 && view.hiddenAbove ? mark('↑') : index === view.rows.length - 1 && view.hiddenBelow ? mark('↓') : blank;
				return (
					<Text key={row.start} wrap="truncate-end">
						{gutter + rowText(text, row) || ' '}
					</Text>
				);
			})}
		</>
	);
});

/**
 * The chat's input editor: CJK-aware, multi-line, with history and bracketed
 * paste, drawing its own rows and putting the terminal's real cursor at the
 * caret (so an IME shows its candidates where the person types).
 *
 * Ink forgets the cursor on any frame in which this component did not render
 * (useCursor is per commit): keep it un-memoised, in the component that
 * re-renders when the live area above it changes. It finds its own row in
 * the output from Ink's layout; nothing needs to be passed for that.
 */
export function InputEditor(props: InputEditorProps) {
	const {prompt = '› ', width, isActive, placeholder} = props;
	const promptWidth = stringWidth(prompt);
	const {stdout} = useStdout();
	const maxRows = Math.max(1, props.maxRows ?? Math.floor(terminalRows(stdout) / 2));
	const [state, setState] = useState(() => createEditor(props.history));
	const current = useRef(state);
	const pastes = useRef<PastePlaceholders>(null);
	pastes.current ??= new PastePlaceholders();
	// Ctrl-R's search while it is open; the editor's own state is left as it is until an entry is taken.
	const [search, setSearch] = useState<HistorySearch | null>(null);
	const searching = useRef(search);
	const latest = useRef({props, promptWidth});
	useLayoutEffect(() => {
		latest.current = {props, promptWidth};
	});

	const onActions = useCallback((actions: EditorAction[]) => {
		const {props, promptWidth} = latest.current;
		const before = current.current;
		let next = before;
		let found = searching.current;
		for (const action of actions) {
			if (found !== null) {
				const outcome = searchKey(found, next, action);
				found = outcome.search;
				next = outcome.editor;
				if (!outcome.replay) continue;
			} else if (action.type === 'reverseSearch') {
				found = startSearch();
				continue;
			}

			next = step(next, action, props, promptWidth, pastes.current!);
		}

		current.current = next;
		searching.current = found;
		setState(next);
		setSearch(found);
		if (next.text !== before.text) props.onChange?.(pastes.current!.expand(textOf(next)));
		if (next.text !== before.text || next.caret !== before.caret) props.onCaret?.(textOf(next), next.caret);
	}, []);
	useRawInput(onActions, isActive);

	const draftId = props.draft?.id;
	useLayoutEffect(() => {
		const {props} = latest.current;
		if (draftId === undefined || props.draft === null || props.draft === undefined) return;
		const next = setText(current.current, props.draft.text);
		current.current = next;
		setState(next);
		props.onChange?.(textOf(next));
		props.onCaret?.(textOf(next), next.caret);
	}, [draftId]);

	useEarlierHistory(props.history, current, searching, setState, setSearch);

	// While searching, the match is shown in place of the text, from its end.
	const shown = search === null ? state.text : searchShown(search, state);
	const caret = search === null ? state.caret : shown.length;
	// The view keeps its first row while the caret stays inside it.
	const top = useRef<number | null>(null);
	const view = useMemo(() => viewport(shown, caret, {width, promptWidth}, maxRows, top.current), [shown, caret, width, promptWidth, maxRows]);
	useLayoutEffect(() => {
		top.current = view.top;
	}, [view]);

	// Layout is computed after the commit, so the row is read in a layout effect; a change re-renders once to move the cursor.
	const box = useRef<DOMElement>(null);
	const [row, setRow] = useState(0);
	useLayoutEffect(() => {
		const measured = box.current ? rowInOutput(box.current) : 0;
		if (measured !== row) setRow(measured);
	});

	const {setCursorPosition} = useCursor();
	// While searching, the cursor is after the query on the search line (an IME shows its candidates there).
	const searchCursor = search && {x: stringWidth(searchLabel(search) + shownQuery(search)), y: row + (shown.length === 0 ? 1 : view.rows.length)};
	setCursorPosition(isActive ? (searchCursor ?? {x: promptWidth + view.caretColumn, y: row + view.caretRow}) : undefined);

	return (
		<Box ref={box} flexDirection="column">
			<Rows text={shown} view={view} prompt={prompt} promptWidth={promptWidth} placeholder={placeholder} />
			{search ? <HistorySearchLine search={search} /> : null}
		</Box>
	);
}

/**
 * Takes a new `history` list in place of the one the editor started with,
 * keeping what was sent since, the entry shown and an open search's match.
 */
function useEarlierHistory(
	history: readonly string[] | undefined,
	current: {current: EditorState},
	searching: {current: HistorySearch | null},
	setState: (state: EditorState) => void,
	setSearch: (search: HistorySearch | null) => void,
): void {
	const taken = useRef(history);
	useLayoutEffect(() => {
		if (history === undefined || history === taken.current) return;
		const before = current.current;
		const next = rebaseHistory(before, taken.current?.length ?? 0, history);
		taken.current = history;
		current.current = next;
		setState(next);
		if (searching.current !== null) {
			searching.current = shiftSearch(searching.current, next.history.length - before.history.length);
			setSearch(searching.current);
		}
	}, [history, current, searching, setState, setSearch]);
}
