import assert from 'node:assert/strict';
import {test} from 'node:test';
import {rankEntries, subsequenceRuns, type PickerEntry} from '../../source/tui/editor/mention-rank.js';

const file = (path: string): PickerEntry => ({path, directory: false});
const dir = (path: string): PickerEntry => ({path, directory: true});
const rank = (entries: PickerEntry[], query: string, limit?: number) => rankEntries(entries, query, limit).map(entry => entry.path);

test('the name starting with the query comes first, then the path, then a run in the name, then in the path, then scattered', () => {
	const entries = [file('docs/xindex.md'), file('src/lib/index.ts'), file('index-notes/a.txt'), file('in/dex.txt'), file('myindex/a.txt'), file('a/my-index.ts'), file('lib/index.js')];
	assert.deepEqual(rank(entries, 'index'), ['lib/index.js', 'src/lib/index.ts', 'index-notes/a.txt', 'a/my-index.ts', 'docs/xindex.md', 'myindex/a.txt', 'in/dex.txt']);
});

test('case is ignored, and characters that do not appear in order match nothing', () => {
	const entries = [file('README.md'), file('src/Main.ts')];
	assert.deepEqual(rank(entries, 'readme'), ['README.md']);
	assert.deepEqual(rank(entries, 'smain'), ['src/Main.ts']);
	assert.deepEqual(rank(entries, 'zz'), []);
	assert.deepEqual(rank(entries, 'niam'), []);
});

test('among scattered matches fewer runs win, then the shorter path', () => {
	assert.equal(subsequenceRuns('chat-store.ts', 'chst'), 2);
	// Greedy from the left: the first c of source/ starts a run of its own.
	assert.equal(subsequenceRuns('source/tui/chat-store.ts', 'chst'), 3);
	assert.equal(subsequenceRuns('abc', 'abc'), 1);
	assert.equal(subsequenceRuns('abc', 'abd'), 0);
	const entries = [file('c/h/s/t.ts'), file('chat-store.ts'), file('long/folder/chat-store.ts')];
	assert.deepEqual(rank(entries, 'chst'), ['chat-store.ts', 'long/folder/chat-store.ts', 'c/h/s/t.ts']);
});

test('an empty query lists the top level, folders first; the limit holds', () => {
	const entries = [file('b.txt'), dir('src'), file('src/a.ts'), file('a.txt'), dir('docs')];
	assert.deepEqual(rank(entries, ''), ['docs', 'src', 'a.txt', 'b.txt']);
	assert.deepEqual(rank(entries, '', 2), ['docs', 'src']);
	assert.equal(
		rankEntries(
			Array.from({length: 50}, (_, index) => file(`f${index}.txt`)),
			'f',
		).length,
		8,
	);
});

test('folders are matched like files', () => {
	assert.deepEqual(rank([dir('source'), dir('source/tui'), file('source/tui/a.ts')], 'tui'), ['source/tui', 'source/tui/a.ts']);
});

test('10 000 entries rank quickly enough to run on every key', () => {
	const entries = Array.from({length: 10_000}, (_, index) => file(`folder${index % 100}/sub${index % 7}/file-${index}.ts`));
	const started = performance.now();
	for (const query of ['f', 'fi', 'fil', 'file-9', 'fo9s3']) rankEntries(entries, query);
	// Five keys: generous for a loaded CI machine, and still far below a frame per key on a normal one.
	assert.ok(performance.now() - started < 2000);
});
