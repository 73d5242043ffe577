import type {EditorAction} from './key-decoder.js';
import {type EditorState, backspace, deleteForward, deleteWordBefore, insert, killToLineEnd, killToLineStart, lineEnd, lineStart, moveLeft, moveRight, wordLeft, wordRight} from './editor-model.js';

/**
 * The editing keys every text field shares (the input editor, the reason
 * field): the new state, or null for a key the field handles itself
 * (Enter, new line, Up/Down, Tab, Esc, Ctrl-C, Ctrl-D).
 */
export function applyEditKey(state: EditorState, action: EditorAction): EditorState | null {
	switch (action.type) {
		case 'insert':
			return insert(state, action.text);
		case 'backspace':
			return backspace(state);
		case 'delete':
			return deleteForward(state);
		case 'left':
			return moveLeft(state);
		case 'right':
			return moveRight(state);
		case 'home':
			return lineStart(state);
		case 'end':
			return lineEnd(state);
		case 'wordLeft':
			return wordLeft(state);
		case 'wordRight':
			return wordRight(state);
		case 'deleteWordBefore':
			return deleteWordBefore(state);
		case 'killToLineEnd':
			return killToLineEnd(state);
		case 'killToLineStart':
			return killToLineStart(state);
		default:
			return null;
	}
}
