import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdir, writeFile} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {setTimeout as delay} from 'node:timers/promises';
import {render} from 'ink-testing-library';
import {App} from '../../components/App.js';
import {ApprovalBroker} from '../../source/tui/brokers/approval-broker.js';
import {ChatStore} from '../../source/tui/chat-store.js';
import {tempDir} from '../tools/helpers.js';

const ESC = '\u001B';
const DOWN = '\u001B[B';
const TAB = '\t';

async function workspace(t: import('node:test').TestContext): Promise<string> {
	const dir = await tempDir(t, 'i-picker-');
	for (const name of ['README.md', 'src/app.ts', 'src/apple.ts', 'src/lib/deep.ts', 'secret.env', 'build.log']) {
		await mkdir(dirname(join(dir, name)), {recursive: true});
		await writeFile(join(dir, name), `${name}\n`);
	}

	await writeFile(join(dir, '.gitignore'), 'secret.env\n*.log\n');
	return dir;
}

async function chat(dir: string) {
	const store = new ChatStore({model: 'm', workspace: '', session: null, usage: null, window: null}, {logo: false, frameMs: 0});
	store.started({workspace: dir});
	const submitted: string[] = [];
	const view = render(<App store={store} broker={new ApprovalBroker()} onSubmit={text => void submitted.push(text)} onInterrupt={() => {}} onExit={() => {}} />);
	for (let waited = 0; view.stdin.listenerCount('readable') === 0; waited += 5) {
		if (waited > 5000) throw new Error('the editor never listened to stdin');
		await delay(5);
	}

	const type = async (...inputs: string[]) => {
		for (const input of inputs) {
			view.stdin.write(input);
			await delay(5);
		}
	};

	/** Waits until the frame passes `check` (a busy runner draws late), then returns it. */
	const frame = async (check: (frame: string) => boolean, what: string): Promise<string> => {
		for (let waited = 0; !check(view.lastFrame() ?? '') && waited < 5000; waited += 10) await delay(10);
		const last = view.lastFrame() ?? '';
		assert.ok(check(last), `${what}; the frame:\n${last}`);
		return last;
	};

	return {store, view, type, frame, submitted};
}

const rows = (frame: string) => frame.split('\n').map(row => row.trim());

test('@ opens the picker over the workspace: the top level, folders first, without what .gitignore ignores', async t => {
	const dir = await workspace(t);
	const {type, frame, view} = await chat(dir);
	try {
		await type('look at @');
		const shown = await frame(text => text.includes('README.md'), 'the top level is listed');
		assert.ok(rows(shown).includes('› src/'), shown);
		assert.ok(rows(shown).includes('README.md'), shown);
		assert.ok(!shown.includes('secret.env'), 'ignored by .gitignore');
		assert.ok(!shown.includes('build.log'), 'ignored by a .gitignore pattern');
		assert.ok(!shown.includes('.gitignore'), 'hidden names are skipped, as glob skips them');
		// Filtering by what is typed after the @: the ignored file stays out whatever matches it.
		await type('se');
		const filtered = await frame(text => !text.includes('README.md'), 'the filter narrows the list');
		assert.ok(!filtered.includes('secret.env'), filtered);
	} finally {
		view.unmount();
	}
});

test('the filter ranks names starting with the query first; ↓ and Enter choose; the path goes in the text with a space', async t => {
	const dir = await workspace(t);
	const {type, frame, view, submitted} = await chat(dir);
	try {
		await type('@app');
		const shown = await frame(text => text.includes('src/apple.ts'), 'the matches');
		const listed = rows(shown).filter(row => row.includes('src/app'));
		assert.deepEqual(listed.slice(0, 2), ['› src/app.ts', 'src/apple.ts']);
		await type(DOWN, '\r');
		await frame(text => text.includes('› @src/apple.ts') && !text.includes('Tab or Enter chooses'), 'the chosen path in the editor, the picker closed');
		assert.deepEqual(submitted, [], 'Enter chose; it did not send');
		await type('please\r');
		await frame(() => submitted.length === 1, 'sent');
		assert.deepEqual(submitted, ['@src/apple.ts please']);
	} finally {
		view.unmount();
	}
});

test('choosing a folder completes it and keeps the picker open for its files; Esc closes and keeps the text', async t => {
	const dir = await workspace(t);
	const {type, frame, view, submitted} = await chat(dir);
	try {
		await type('@sr');
		await frame(text => text.includes('› src/'), 'the folder first');
		await type(TAB);
		const inside = await frame(text => text.includes('› @src/') && text.includes('src/lib/'), 'the folder completed, its entries listed');
		assert.ok(inside.includes('src/app.ts'), inside);
		await type('dee');
		await frame(text => text.includes('src/lib/deep.ts'), 'deeper files match');
		await type(ESC);
		await frame(text => text.includes('› @src/dee') && !text.includes('src/lib/deep.ts'), 'closed; the typed text stays');
		// Closed, Enter sends the text as typed.
		await type('\r');
		await frame(() => submitted.length === 1, 'sent');
		assert.deepEqual(submitted, ['@src/dee']);
	} finally {
		view.unmount();
	}
});

test('an @ inside a word (an e-mail address) opens nothing', async t => {
	const dir = await workspace(t);
	const {type, frame, view} = await chat(dir);
	try {
		await type('write to me@exam');
		await frame(text => text.includes('me@exam'), 'typed');
		await delay(100);
		assert.ok(!(view.lastFrame() ?? '').includes('README.md'));
	} finally {
		view.unmount();
	}
});

test('past the walk limit the picker says so; keys typed while it walks are kept', async t => {
	const dir = await tempDir(t, 'i-picker-big-');
	await mkdir(join(dir, 'many'));
	await Promise.all(Array.from({length: 10_001}, async (_, index) => writeFile(join(dir, 'many', `f${index}.txt`), '')));
	const {type, frame, view} = await chat(dir);
	try {
		await type('@', 'f', '9', '9', '9', '9');
		await frame(text => text.includes('› @f9999'), 'every key reached the editor');
		const shown = await frame(text => text.includes('only the first 10000 files are listed'), 'the limit note');
		assert.ok(shown.includes('many/f9999.txt'), shown);
	} finally {
		view.unmount();
	}
});

test('the MCP servers’ resources are listed as server:uri with their names, as they come; choosing one writes @server:uri', async t => {
	const dir = await workspace(t);
	const {store, type, frame, view, submitted} = await chat(dir);
	try {
		await type('read @');
		await frame(text => text.includes('README.md'), 'the files');
		// A server becomes ready while the picker is open: its resources join the list at once.
		store.setResources([
			{path: 'docs:file:///guide.md', directory: false, resource: 'The guide'},
			{path: 'docs:file:///api/reference.md', directory: false, resource: 'API reference'},
		]);
		const listed = await frame(text => text.includes('docs:file:///guide.md'), 'the resources with an empty query');
		assert.match(listed, /docs:file:\/\/\/guide\.md The guide \(MCP resource\)/);
		assert.match(listed, /docs:file:\/\/\/api\/reference\.md API reference \(MCP resource\)/);
		await type('docs:ref');
		const filtered = await frame(text => !text.includes('guide.md') && !text.includes('README.md'), 'the filter');
		assert.ok(
			rows(filtered).some(row => row.startsWith('› docs:file:///api/reference.md')),
			filtered,
		);
		await type(TAB);
		await frame(text => text.includes('› read @docs:file:///api/reference.md') && !text.includes('Tab or Enter chooses'), 'the mention in the editor');
		await type('please\r');
		await frame(() => submitted.length === 1, 'sent');
		assert.deepEqual(submitted, ['read @docs:file:///api/reference.md please']);
		// A server that stopped takes its resources with it.
		store.setResources([]);
		await type('@docs:');
		await frame(text => text.includes('nothing matches'), 'no resource left');
	} finally {
		view.unmount();
	}
});
