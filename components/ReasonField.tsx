import {useCallback, useRef, useState} from 'react';
import {Text} from 'ink';
import type {EditorAction} from '../source/tui/editor/key-decoder.js';
import {forEachCluster, visibleCluster} from '../source/tui/editor/editor-graphemes.js';
import {type EditorState, createEditor, insert, lineEnd, lineStart, textOf} from '../source/tui/editor/editor-model.js';
import {applyEditKey} from '../source/tui/editor/editor-actions.js';
import {useRawInput} from './use-raw-input.js';

export interface ReasonFieldProps {
	/** Enter, with the text (possibly empty). */
	onSubmit(text: string): void;
	/** Esc or Ctrl-C. */
	onCancel(): void;
}

/** One line: a pasted or typed line break becomes a space. */
const oneLine = (text: string) => text.replaceAll(/\r\n|[\r\n]/g, ' ');

function step(state: EditorState, action: EditorAction): EditorState {
	switch (action.type) {
		case 'insert':
			return insert(state, oneLine(action.text));
		case 'newline':
			return insert(state, ' ');
		case 'up':
			return lineStart(state);
		case 'down':
			return lineEnd(state);
		default:
			return applyEditKey(state, action) ?? state;
	}
}

/**
 * The one-line field for a denial's reason, on the same grapheme-aware
 * editing model as the input editor: CJK, emoji and combining marks move
 * and delete as one character. The caret is drawn as an inverse cell (the
 * terminal's own cursor stays with the input editor).
 */
export function ReasonField({onSubmit, onCancel}: ReasonFieldProps) {
	const [state, setState] = useState(() => createEditor());
	const current = useRef(state);
	const handlers = useRef({onSubmit, onCancel});
	handlers.current = {onSubmit, onCancel};
	const onActions = useCallback((actions: EditorAction[]) => {
		let next = current.current;
		for (const action of actions) {
			if (action.type === 'submit') {
				handlers.current.onSubmit(textOf(next));
				return;
			}

			if (action.type === 'escape' || action.type === 'ctrlC') {
				handlers.current.onCancel();
				return;
			}

			next = step(next, action);
		}

		current.current = next;
		setState(next);
	}, []);
	useRawInput(onActions, true);

	const text = textOf(state);
	let caretEnd = text.length;
	forEachCluster(text, state.caret, text.length, (_start, end) => {
		caretEnd = end;
		return true;
	});
	const under = state.caret < text.length ? visibleCluster(text.slice(state.caret, caretEnd)) : ' ';
	return (
		<Text>
			{visibleText(text.slice(0, state.caret))}
			<Text inverse>{under}</Text>
			{visibleText(text.slice(caretEnd))}
		</Text>
	);
}

function visibleText(text: string): string {
	let shown = '';
	forEachCluster(text, 0, text.length, (start, end) => {
		shown += visibleCluster(text.slice(start, end));
	});
	return shown;
}
