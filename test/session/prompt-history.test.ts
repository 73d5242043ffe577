// The workspace's prompt history (issue 45, point 5): the bound at the limit
// and one past it, the byte cap per entry, repeats, appends from two stores
// and two processes, a corrupt line, a file that is not a regular one, an
// unreadable one, and the file's and folder's modes.
import assert from 'node:assert/strict';
import {execFile, execFileSync} from 'node:child_process';
import {chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test} from 'node:test';
import {pathToFileURL} from 'node:url';
import {promisify} from 'node:util';
import {HISTORY_TRIM_SLACK, MAX_HISTORY_ENTRIES, MAX_HISTORY_ENTRY_BYTES, PROMPT_HISTORY_FILE, PromptHistory} from '../../source/core/session/prompt-history.js';

const run = promisify(execFile);

/** A history file's place in a state folder that does not exist yet. */
function place(): string {
	return join(mkdtempSync(join(tmpdir(), 'i-history-')), 'workspaces', 'state', PROMPT_HISTORY_FILE);
}

function store(path: string): {history: PromptHistory; notices: string[]} {
	const notices: string[] = [];
	return {history: new PromptHistory(path, text => notices.push(text)), notices};
}

function fileEntries(path: string): string[] {
	return readFileSync(path, 'utf8')
		.split('\n')
		.filter(line => line !== '')
		.map(line => (JSON.parse(line) as {text: string}).text);
}

function writeEntries(path: string, count: number): void {
	mkdirSync(join(path, '..'), {recursive: true});
	writeFileSync(path, Array.from({length: count}, (_, index) => `${JSON.stringify({text: `prompt ${index}`})}\n`).join(''));
}

test('a prompt appended is loaded by the next store; the file is 0600 in a 0700 folder', async () => {
	const path = place();
	const first = store(path);
	assert.deepEqual(await first.history.load(), [], 'no file yet: nothing, no notice');
	first.history.append('fix the login bug');
	first.history.append('/help');
	first.history.append('!git status');
	await first.history.settled();
	assert.deepEqual(await store(path).history.load(), ['fix the login bug', '/help', '!git status']);
	assert.equal(statSync(path).mode & 0o777, 0o600);
	assert.equal(statSync(join(path, '..')).mode & 0o777, 0o700);
	assert.deepEqual(first.notices, []);
});

test('a wider file and state folder are made private on the next append', async () => {
	const path = place();
	writeEntries(path, 1);
	chmodSync(path, 0o644);
	chmodSync(join(path, '..'), 0o755);
	const {history} = store(path);
	history.append('secret');
	await history.settled();
	assert.equal(statSync(path).mode & 0o777, 0o600);
	assert.equal(statSync(join(path, '..')).mode & 0o777, 0o700);
});

test('the bound: at the limit every prompt loads; one past it the oldest does not', async () => {
	const path = place();
	writeEntries(path, MAX_HISTORY_ENTRIES);
	const atLimit = await store(path).history.load();
	assert.equal(atLimit.length, MAX_HISTORY_ENTRIES);
	assert.equal(atLimit[0], 'prompt 0');

	writeEntries(path, MAX_HISTORY_ENTRIES + 1);
	const past = await store(path).history.load();
	assert.equal(past.length, MAX_HISTORY_ENTRIES);
	assert.equal(past[0], 'prompt 1');
	assert.equal(past.at(-1), `prompt ${MAX_HISTORY_ENTRIES}`);
});

test('past the bound and its slack the file is trimmed to the newest prompts, by a load or an append', async () => {
	const path = place();
	writeEntries(path, MAX_HISTORY_ENTRIES + HISTORY_TRIM_SLACK);
	const {history} = store(path);
	await history.load();
	await history.settled();
	assert.equal(fileEntries(path).length, MAX_HISTORY_ENTRIES + HISTORY_TRIM_SLACK, 'within the slack: not rewritten');
	history.append('the one past the slack');
	await history.settled();
	const kept = fileEntries(path);
	assert.equal(kept.length, MAX_HISTORY_ENTRIES);
	assert.equal(kept.at(-1), 'the one past the slack');
	assert.equal(statSync(path).mode & 0o777, 0o600, 'the rewritten file is private too');

	writeEntries(path, MAX_HISTORY_ENTRIES + HISTORY_TRIM_SLACK + 1);
	const loader = store(path).history;
	await loader.load();
	await loader.settled();
	assert.equal(fileEntries(path).length, MAX_HISTORY_ENTRIES);
	assert.equal(fileEntries(path)[0], `prompt ${HISTORY_TRIM_SLACK + 1}`);
});

test('the byte cap: a prompt whose line is at the cap is kept, one byte more is not; blank ones are not', async () => {
	const path = place();
	const {history} = store(path);
	// The line is {"text":"…"}: 11 bytes around the text.
	const atCap = 'a'.repeat(MAX_HISTORY_ENTRY_BYTES - 11);
	history.append(atCap);
	history.append(`b${atCap}`);
	history.append('   ');
	await history.settled();
	assert.deepEqual(fileEntries(path), [atCap]);
});

test('consecutive repeats are kept once, by one store and across two', async () => {
	const path = place();
	const one = store(path).history;
	const two = store(path).history;
	one.append('run the tests');
	one.append('run the tests');
	await one.settled();
	two.append('run the tests');
	await two.settled();
	one.append('fix it');
	one.append('run the tests');
	await one.settled();
	assert.deepEqual(fileEntries(path), ['run the tests', 'fix it', 'run the tests']);
});

test('two stores appending at once lose nothing', async () => {
	const path = place();
	const one = store(path).history;
	const two = store(path).history;
	for (let index = 0; index < 50; index++) {
		one.append(`one ${index}`);
		two.append(`two ${index}`);
	}

	await Promise.all([one.settled(), two.settled()]);
	const entries = fileEntries(path);
	assert.equal(entries.length, 100);
	assert.deepEqual(
		entries.filter(text => text.startsWith('one')),
		Array.from({length: 50}, (_, index) => `one ${index}`),
	);
});

test('two processes appending at once lose nothing, each in its order', async () => {
	const path = place();
	const module = pathToFileURL(new URL('../../source/core/session/prompt-history.js', import.meta.url).pathname).href;
	const script = (name: string) =>
		`import {PromptHistory} from ${JSON.stringify(module)};
		const history = new PromptHistory(${JSON.stringify(path)}, text => { console.error(text); process.exitCode = 1; });
		for (let index = 0; index < 100; index++) history.append('${name} ' + index);
		await history.settled();`;
	await Promise.all(['a', 'b'].map(async name => run(process.execPath, ['--input-type=module', '-e', script(name)])));
	const entries = fileEntries(path);
	assert.equal(entries.length, 200);
	for (const name of ['a', 'b']) {
		assert.deepEqual(
			entries.filter(text => text.startsWith(`${name} `)),
			Array.from({length: 100}, (_, index) => `${name} ${index}`),
		);
	}
});

test('lines that are not JSON, not UTF-8 or not prompts are skipped with one notice; the rest load and stay', async () => {
	const path = place();
	mkdirSync(join(path, '..'), {recursive: true});
	const good = (text: string) => Buffer.from(`${JSON.stringify({text})}\n`);
	writeFileSync(path, Buffer.concat([good('first'), Buffer.from('{not json\n'), Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x0a]), Buffer.from('{"other":1}\n'), good('second')]));
	const {history, notices} = store(path);
	assert.deepEqual(await history.load(), ['first', 'second']);
	assert.equal(notices.length, 1);
	assert.match(notices[0]!, /skipped 3 lines/);
	history.append('third');
	await history.settled();
	assert.deepEqual(await store(path).history.load(), ['first', 'second', 'third']);
});

test('a line a killed writer left without its newline does not swallow the next prompt', async () => {
	const path = place();
	mkdirSync(join(path, '..'), {recursive: true});
	writeFileSync(path, `${JSON.stringify({text: 'whole'})}\n{"text":"cut of`);
	const {history} = store(path);
	history.append('after');
	await history.settled();
	assert.deepEqual(await store(path).history.load(), ['whole', 'after']);
});

test('a FIFO at the path is neither waited on nor written: one notice, and the run goes on', async t => {
	const path = place();
	mkdirSync(join(path, '..'), {recursive: true});
	try {
		execFileSync('mkfifo', [path]);
	} catch {
		t.skip('mkfifo is not available here');
		return;
	}

	const {history, notices} = store(path);
	assert.deepEqual(await history.load(), []);
	history.append('not kept');
	await history.settled();
	assert.equal(notices.length, 1);
	assert.match(notices[0]!, /FIFO \(named pipe\), not a regular file/);
	assert.ok(statSync(path).isFIFO());
});

test('a folder at the path: one notice, nothing written', async () => {
	const path = place();
	mkdirSync(path, {recursive: true});
	const {history, notices} = store(path);
	assert.deepEqual(await history.load(), []);
	history.append('not kept');
	await history.settled();
	assert.equal(notices.length, 1);
	assert.match(notices[0]!, /a folder, not a regular file/);
});

test('an unreadable file: one notice, and it is left as it was', async t => {
	if (process.getuid?.() === 0) {
		t.skip('root reads any file');
		return;
	}

	const path = place();
	writeEntries(path, 2);
	chmodSync(path, 0o200);
	const {history, notices} = store(path);
	assert.deepEqual(await history.load(), []);
	history.append('not kept');
	await history.settled();
	assert.equal(notices.length, 1);
	chmodSync(path, 0o600);
	assert.deepEqual(fileEntries(path), ['prompt 0', 'prompt 1']);
});
