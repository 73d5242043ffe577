import {test} from 'node:test';
import assert from 'node:assert/strict';
import {type EditorAction, PASTE_END, PASTE_START, createKeyDecoder} from '../../source/tui/editor/key-decoder.js';

/** The actions a series of input events (as Ink's input parser emits them) make. */
function decode(...events: string[]): EditorAction[] {
	const decoder = createKeyDecoder();
	return events.flatMap(event => decoder.push(event));
}

const key = (type: Exclude<EditorAction['type'], 'insert'>): EditorAction => ({type});
const text = (value: string): EditorAction => ({type: 'insert', text: value});
const pasted = (value: string): EditorAction => ({type: 'insert', text: value, paste: true});

test('each key maps to its action', () => {
	const keys: Array<[string, EditorAction['type']]> = [
		['\r', 'submit'],
		['\n', 'newline'],
		['\u001B\r', 'newline'],
		['\u001B[13;2u', 'newline'],
		['\u001B[27;2;13~', 'newline'],
		['\u007F', 'backspace'],
		['\b', 'backspace'],
		['\u001B[3~', 'delete'],
		['\u001B[Z', 'shiftTab'],
		['\u001B[D', 'left'],
		['\u001B[C', 'right'],
		['\u001B[A', 'up'],
		['\u001B[B', 'down'],
		['\u001BOD', 'left'],
		['\u001BOA', 'up'],
		['\u001B[1;2C', 'right'],
		['\u001B[H', 'home'],
		['\u001B[F', 'end'],
		['\u001B[1~', 'home'],
		['\u001B[4~', 'end'],
		['\u001BOH', 'home'],
		['\u001BOF', 'end'],
		['\u0001', 'home'],
		['\u0005', 'end'],
		['\u001B[1;5D', 'wordLeft'],
		['\u001B[1;3D', 'wordLeft'],
		['\u001Bb', 'wordLeft'],
		['\u001B\u001B[D', 'wordLeft'],
		['\u001B[1;5C', 'wordRight'],
		['\u001B[1;3C', 'wordRight'],
		['\u001Bf', 'wordRight'],
		['\u0017', 'deleteWordBefore'],
		['\u001B\u007F', 'deleteWordBefore'],
		['\u000B', 'killToLineEnd'],
		['\u0015', 'killToLineStart'],
		['\u0003', 'ctrlC'],
		['\u0004', 'ctrlD'],
		['\u001B', 'escape'],
		['\t', 'tab'],
	];
	for (const [input, type] of keys) assert.deepEqual(decode(input), [{type}], JSON.stringify(input));
});

test('unknown sequences and stray controls are dropped, never inserted', () => {
	assert.deepEqual(decode('\u001B[15~', '\u001B[I', '\u001Bx', '\u0011', '\u001B[24~'), []);
});

test('Ctrl-O asks for the whole transcript', () => {
	assert.deepEqual(decode('\u000F'), [key('transcript')]);
});

test('Ctrl-R searches the history and Ctrl-G leaves the search, as in readline', () => {
	assert.deepEqual(decode('\u0012', '\u0007'), [key('reverseSearch'), key('cancel')]);
});

test('an IME burst followed by Enter is the whole text, then a submit', () => {
	assert.deepEqual(decode('你好\r'), [text('你好'), key('submit')]);
	assert.deepEqual(decode('👩‍👩‍👧 e\u0301\r'), [text('👩‍👩‍👧 e\u0301'), key('submit')]);
});

test('controls inside a run of text act in order around the text', () => {
	assert.deepEqual(decode('ab\u007Fc\u0003d\re'), [text('ab'), key('backspace'), text('c'), key('ctrlC'), text('d'), key('submit'), text('e')]);
});

test('a paste spanning events is one insertion with its line breaks as newlines, never submitted', () => {
	const actions = decode('typed', PASTE_START, 'line one\r\n第二行\r', '\nthird\rfourth', '\u001B[31m', 'red\u0003\u007F', PASTE_END, '\r');
	assert.deepEqual(actions, [text('typed'), pasted('line one\n第二行\nthird\nfourth\u001B[31mred\u0003\u007F'), key('submit')]);
});

test('a CR LF split between two paste events is one newline', () => {
	assert.deepEqual(decode(PASTE_START, 'a\r', '\nb', PASTE_END), [pasted('a\nb')]);
});

test('a fake paste end inside text does not end a paste early, a real one in the middle of an event does', () => {
	assert.deepEqual(decode(PASTE_START, '[201~ not the end', PASTE_END), [pasted('[201~ not the end')]);
	assert.deepEqual(decode(`${PASTE_START}pasted${PASTE_END}\r`), [pasted('pasted'), key('submit')]);
});

test('an empty paste inserts nothing', () => {
	assert.deepEqual(decode(PASTE_START, PASTE_END), []);
});

test('a new line is Alt+Enter or Ctrl-J, Enter alone submits', () => {
	assert.deepEqual(decode('a', '\u001B\r', 'b\nc\r'), [text('a'), key('newline'), text('b'), key('newline'), text('c'), key('submit')]);
});
