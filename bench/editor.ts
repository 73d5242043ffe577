// The input editor on a 1 MB paste (issue 4: "bracketed paste of large text
// without lag"): what one keystroke costs in the model and its view (the rows
// around the caret), against the baseline of a plain-string editor, which
// copies the whole text on every key. Two pastes: many lines of mixed
// ASCII/CJK/emoji, and the same as one line (minified JSON's shape).
import {median, timeSync} from './measure.js';
import {backspace, createEditor, insert, moveUp, wordLeft, type EditorState} from '../source/tui/editor/editor-model.js';
import {viewport} from '../source/tui/editor/editor-layout.js';

const KEYS = 200;
const geometry = {width: 100, promptWidth: 2};
const ROWS = 12;

function paste(multiLine: boolean): string {
	const line = 'const 变量 = {"key": "值", list: [1, 2, 3]}; // 注释 👍🏽 e\u0301 and some ASCII to fill the line';
	const text = Array.from({length: Math.ceil(1_000_000 / (line.length + 1))}, (_, index) => `${line} ${index}`).join(multiLine ? '\n' : ' ');
	return text.slice(0, 1_000_000);
}

function measure(text: string) {
	let state: EditorState = createEditor();
	let top: number | null = null;
	const view = () => {
		top = viewport(state.text, state.caret, geometry, ROWS, top).top;
	};

	const pasted = timeSync(() => {
		state = insert(state, text);
		view();
	});
	const key = (edit: (state: EditorState) => EditorState) =>
		timeSync(() => {
			state = edit(state);
			view();
		});
	const keystroke: number[] = [];
	const erase: number[] = [];
	const up: number[] = [];
	const word: number[] = [];
	for (let count = 0; count < KEYS; count++) {
		keystroke.push(key(current => insert(current, '字')));
		erase.push(key(backspace));
		word.push(key(wordLeft));
		up.push(key(current => moveUp(current, geometry)));
	}

	// The baseline: one character into a plain 1 MB string, then a newline search (what finding the caret's line needs).
	let plain = text;
	const baseline: number[] = [];
	for (let count = 0; count < KEYS; count++) {
		const at = plain.length >> 1;
		baseline.push(
			timeSync(() => {
				plain = plain.slice(0, at) + '字' + plain.slice(at);
				plain.lastIndexOf('\n', at);
			}),
		);
	}

	return {pasted, keystroke: median(keystroke), erase: median(erase), word: median(word), up: median(up), baseline: median(baseline)};
}

export function benchEditor(): void {
	console.log('');
	console.log(`| input editor, 1 MB paste, ${KEYS} keys, medians, view of ${ROWS} rows at ${geometry.width} columns | many lines ms | one line ms |`);
	console.log('|---|---:|---:|');
	const lines = measure(paste(true));
	const single = measure(paste(false));
	const rows: Array<[string, number, number]> = [
		['paste and first view (once)', lines.pasted, single.pasted],
		['type a character + view', lines.keystroke, single.keystroke],
		['backspace + view', lines.erase, single.erase],
		['word left + view', lines.word, single.word],
		['up (row above or history) + view', lines.up, single.up],
		['plain string: insert one character (baseline)', lines.baseline, single.baseline],
	];
	for (const [name, many, one] of rows) console.log(`| ${name} | ${many.toFixed(3)} | ${one.toFixed(3)} |`);
	console.log('');
	console.log(
		`a keystroke: ${lines.keystroke.toFixed(3)} ms (many lines), ${single.keystroke.toFixed(3)} ms (one line) — ${(lines.baseline / lines.keystroke).toFixed(0)}× and ${(single.baseline / single.keystroke).toFixed(0)}× under the plain-string baseline (target ≪ 5 ms)`,
	);
}
