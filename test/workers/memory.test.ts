import assert from 'node:assert/strict';
import {randomUUID} from 'node:crypto';
import {mkdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test, type TestContext} from 'node:test';
import {SUMMARY_MARKER} from '../../source/core/history/compaction.js';
import {stateFromHistory} from '../../workers/context-snapshot/context-snapshot.js';
import {makeFolders, startOfficialWorker, type Folders, type FrameWorker} from './frame-worker.js';

interface Memory {
	folders: Folders;
	worker: FrameWorker;
	workspaceId: string;
	file: string;
	/** One tool call; resolves with its output, or rejects with the error frame's message. */
	call(name: string, args: unknown): Promise<string>;
	/** One tool call that must fail; resolves with the error message. */
	fails(name: string, args: unknown): Promise<string>;
	hook(event: string, data: Record<string, unknown>): Promise<Record<string, any>>;
}

async function startMemory(t: TestContext, options: {folders?: Folders; args?: string[]; workspaceId?: string} = {}): Promise<Memory> {
	const folders = options.folders ?? (await makeFolders(t));
	const workspaceId = options.workspaceId ?? randomUUID();
	const worker = startOfficialWorker(t, 'memory', options.args ?? [], {env: folders.env, cwd: folders.root});
	let id = 0;
	const frame = async (event: string, data: Record<string, unknown>) => {
		const response = await worker.request({id: ++id, event, workspace: folders.workspace, workspace_id: workspaceId, paths: folders.paths, data});
		assert.equal(response.id, id);
		return response;
	};

	return {
		folders,
		worker,
		workspaceId,
		file: join(folders.data, 'workspaces', workspaceId, 'memory.json'),
		async call(name, args) {
			const response = await frame('tool', {name, arguments: args});
			if (response.error !== undefined) throw new Error(response.error);
			assert.deepEqual(Object.keys(response.data), ['output']);
			return response.data.output as string;
		},
		async fails(name, args) {
			const response = await frame('tool', {name, arguments: args});
			assert.equal(typeof response.error, 'string', `expected an error, got ${JSON.stringify(response.data)}`);
			return response.error as string;
		},
		async hook(event, data) {
			const response = await frame(event, data);
			assert.ok(response.data, response.error);
			return response.data;
		},
	};
}

async function readJson(path: string): Promise<any> {
	return JSON.parse(await readFile(path, 'utf8'));
}

test('memory write, read and delete round trip through memory.json in the workspace state folder', async t => {
	const memory = await startMemory(t);
	assert.match(await memory.call('memory_read', {}), /"count":0/);
	assert.equal(await memory.call('memory_write', {key: 'style/indent', text: 'tabs, width 4'}), 'created memory entry "style/indent" (13 bytes; 1 entry in all)');
	assert.equal(await memory.call('memory_write', {key: 'build', text: 'npm run build'}), 'created memory entry "build" (13 bytes; 2 entries in all)');
	assert.equal(await memory.call('memory_write', {key: 'build', text: 'make'}), 'replaced memory entry "build" (4 bytes; 2 entries in all)');

	const one = JSON.parse(await memory.call('memory_read', {key: 'build'}));
	assert.equal(one.key, 'build');
	assert.equal(one.text, 'make');
	assert.ok(!Number.isNaN(Date.parse(one.updated_at)));
	const all = JSON.parse(await memory.call('memory_read', {}));
	assert.deepEqual(
		all.entries.map((entry: any) => [entry.key, entry.text]),
		[
			['build', 'make'],
			['style/indent', 'tabs, width 4'],
		],
	);
	assert.equal(all.count, 2);

	const file = await readJson(memory.file);
	assert.equal(file.version, 1);
	assert.deepEqual(Object.keys(file.entries).sort(), ['build', 'style/indent']);
	assert.equal(file.entries.build.text, 'make');

	assert.equal(await memory.call('memory_delete', {key: 'build'}), 'deleted memory entry "build" (1 entry left)');
	assert.match(await memory.fails('memory_read', {key: 'build'}), /no memory entry "build"/);
	const before = await readFile(memory.file, 'utf8');
	assert.match(await memory.fails('memory_delete', {key: 'build'}), /no memory entry "build" to delete; nothing was changed/);
	assert.equal(await readFile(memory.file, 'utf8'), before);
	assert.deepEqual(Object.keys((await readJson(memory.file)).entries), ['style/indent']);

	const exit = await memory.worker.close();
	assert.equal(exit.code, 0, exit.stderr);
});

test('memory keys: 200 characters of the key set pass, 201 and anything outside it are refused', async t => {
	const memory = await startMemory(t);
	const longest = `k${'a'.repeat(199)}`;
	assert.match(await memory.call('memory_write', {key: longest, text: 'x'}), /^created/);
	assert.match(await memory.call('memory_write', {key: 'A.b_c-d:e/9', text: 'x'}), /^created/);
	assert.match(await memory.fails('memory_write', {key: `${longest}a`, text: 'x'}), /has 201 characters; a key has 1–200/);
	assert.match(await memory.fails('memory_write', {key: '', text: 'x'}), /has 0 characters/);
	for (const key of ['../escape', '__proto__', ' lead', 'has space', 'naïve', '/abs', 'semi;colon']) {
		assert.match(await memory.fails('memory_write', {key, text: 'x'}), /is not valid: use ASCII letters, digits and \. _ - : \/ only/, key);
	}

	assert.match(await memory.fails('memory_read', {key: '../x'}), /is not valid/);
	assert.match(await memory.fails('memory_delete', {key: `${longest}a`}), /has 201 characters/);
	// `constructor` is a plain key, never Object.prototype's.
	assert.match(await memory.fails('memory_read', {key: 'constructor'}), /no memory entry "constructor"/);
	assert.match(await memory.call('memory_write', {key: 'constructor', text: 'ctor'}), /^created/);
	assert.equal(JSON.parse(await memory.call('memory_read', {key: 'constructor'})).text, 'ctor');
});

test('memory text: 64 KiB in UTF-8 bytes passes, one byte more is refused; empty text is refused', async t => {
	const memory = await startMemory(t);
	assert.match(await memory.call('memory_write', {key: 'ascii', text: 'a'.repeat(65_536)}), /\(65536 bytes;/);
	assert.match(await memory.fails('memory_write', {key: 'ascii2', text: 'a'.repeat(65_537)}), /is 65537 bytes; an entry may have at most 65536/);
	// Bytes, not characters: 21846 three-byte characters are 65538 bytes.
	assert.match(await memory.fails('memory_write', {key: 'euro', text: '€'.repeat(21_846)}), /is 65538 bytes/);
	assert.match(await memory.call('memory_write', {key: 'e-acute', text: 'é'.repeat(32_768)}), /\(65536 bytes;/);
	assert.match(await memory.fails('memory_write', {key: 'empty', text: ''}), /is empty; use memory_delete/);
	assert.deepEqual(Object.keys((await readJson(memory.file)).entries).sort(), ['ascii', 'e-acute']);
});

test('memory holds at most 500 entries and all of them must fit one context snapshot; over a limit the file is unchanged', async t => {
	const memory = await startMemory(t);
	const entries = Object.fromEntries(Array.from({length: 499}, (_, index) => [`k${index}`, {text: `note ${index}`, updated_at: '2026-11-30T00:00:00.000Z'}]));
	await mkdir(join(memory.file, '..'), {recursive: true});
	await writeFile(memory.file, JSON.stringify({version: 1, entries}));
	assert.match(await memory.call('memory_write', {key: 'k499', text: 'the 500th'}), /created memory entry "k499" \(9 bytes; 500 entries in all\)/);
	const full = await readFile(memory.file, 'utf8');
	assert.match(await memory.fails('memory_write', {key: 'k500', text: 'one too many'}), /memory is full: it has 500 entries, the most it may hold \(500\); delete or merge some first/);
	assert.equal(await readFile(memory.file, 'utf8'), full);
	// Replacing an entry of a full memory is fine.
	assert.match(await memory.call('memory_write', {key: 'k0', text: 'replaced'}), /^replaced/);

	// Total size: three 64 KiB entries fit one 256 KiB snapshot, a fourth does not.
	const big = await startMemory(t);
	for (const key of ['a', 'b', 'c']) assert.match(await big.call('memory_write', {key, text: key.repeat(65_536)}), /^created/);
	const three = await readFile(big.file, 'utf8');
	assert.match(await big.fails('memory_write', {key: 'd', text: 'd'.repeat(65_536)}), /memory is full: all entries together must fit 262144 bytes .* nothing was stored/);
	assert.equal(await readFile(big.file, 'utf8'), three);
	assert.match(await big.call('memory_write', {key: 'd', text: 'small'}), /^created/);
});

test('memory tools with bad arguments or no workspace_id answer with errors naming the field', async t => {
	const memory = await startMemory(t);
	assert.match(await memory.fails('memory_write', {key: 'a'}), /memory_write arguments: missing field "text"/);
	assert.match(await memory.fails('memory_write', {key: 'a', text: 5}), /memory_write arguments: field "text": /);
	assert.match(await memory.fails('memory_write', {key: 'a', text: 'x', extra: 1}), /memory_write arguments: unknown field "extra"/);
	assert.match(await memory.fails('memory_delete', {}), /memory_delete arguments: missing field "key"/);
	assert.match(await memory.fails('memory_read', 'all'), /memory_read arguments: /);
	assert.match(await memory.fails('memory_forget', {}), /unknown tool "memory_forget"; the memory worker provides: memory_read, memory_write, memory_delete/);

	const response = await memory.worker.request({id: 99, event: 'tool', paths: memory.folders.paths, data: {name: 'memory_read', arguments: {}}});
	assert.match(response.error, /memory_read: the request has no workspace_id/);
});

const secrets: Array<[string, string, RegExp]> = [
	['openai', `the key is sk-proj-${'Ab3dE'.repeat(8)}`, /an OpenAI-style API key \(sk-…\)/],
	['anthropic', `ANTHROPIC=sk-ant-api03-${'x9Y_z'.repeat(8)}`, /an Anthropic API key \(sk-ant-…\)/],
	['aws', 'aws id AKIAIOSFODNN7EXAMPLE here', /an AWS access key ID/],
	['github', `push with ghp_${'a1B2c3D4e5'.repeat(4)}`, /a GitHub token/],
	['github-pat', `github_pat_11ABCDEFG0${'abcXYZ123_'.repeat(6)}`, /a GitHub token/],
	['slack', 'bot xoxb-1234567890-abcdefghij', /a Slack token/],
	['google', `maps AIzaSy${'A1b2C3d4E5'.repeat(3)}xyz12`, /a Google API key/],
	['jwt', 'session eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', /a JSON Web Token/],
	['pem', '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----', /a PEM private key/],
	['pem-openssh', '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----', /a PEM private key/],
	['password', 'db password: Zx81kPq0LmR3tYv7Wq', /a long random-looking value after a word such as password, secret or token/],
	['token-hex', 'deploy token = 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b', /a long random-looking value/],
	['client-secret', 'client_secret "aB3xY9kLmN0pQ7rS2tU"', /a long random-looking value/],
];

test('memory refuses secret-shaped text, says which kind and never echoes it; the file is unchanged', async t => {
	const memory = await startMemory(t);
	await memory.call('memory_write', {key: 'keep', text: 'kept'});
	const before = await readFile(memory.file, 'utf8');
	for (const [key, text, kind] of secrets) {
		const error = await memory.fails('memory_write', {key, text});
		assert.match(error, kind, key);
		assert.match(error, /memory never stores secrets; nothing was stored/, key);
		const value = /[A-Za-z0-9_+/.-]{16,}/.exec(text.replace(/-----[A-Z ]+-----/g, ''))![0];
		assert.ok(!error.includes(value), `${key}: the error echoes the secret: ${error}`);
	}

	// In the key, too.
	assert.match(await memory.fails('memory_write', {key: `sk-${'Ab3dE'.repeat(8)}`, text: 'x'}), /an OpenAI-style API key/);
	assert.equal(await readFile(memory.file, 'utf8'), before);
});

test('memory stores ordinary notes that only mention secrets or look a little like them', async t => {
	const memory = await startMemory(t);
	const ordinary = [
		'The API key is read from the OPENAI_API_KEY environment variable.',
		'token budget uses tiktoken_cl100k_base_encoding',
		'password reset flow lives in src/auth/reset-password.ts',
		'secret: /etc/app/credentials/secretfile.json holds it',
		'we use sk-learn style naming and scikit-learn',
		'commit 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b fixed the build',
		'-----BEGIN PUBLIC KEY----- blocks are fine to keep',
	];
	for (const [index, text] of ordinary.entries()) assert.match(await memory.call('memory_write', {key: `n${index}`, text}), /^created/, text);
});

test('a corrupt memory.json is an error naming the file, and it is never overwritten', async t => {
	const memory = await startMemory(t);
	await mkdir(join(memory.file, '..'), {recursive: true});
	for (const content of ['{"version": 1, "entries": {', JSON.stringify({version: 2, entries: {}}), JSON.stringify({version: 1, entries: {a: {text: 1, updated_at: 'x'}}})]) {
		await writeFile(memory.file, content);
		for (const [name, args] of [
			['memory_read', {}],
			['memory_read', {key: 'a'}],
			['memory_write', {key: 'a', text: 'new'}],
			['memory_delete', {key: 'a'}],
		] as const) {
			const error = await memory.fails(name, args);
			assert.ok(error.includes(`memory file ${memory.file} is corrupt (`), error);
			assert.match(error, /never reset or overwritten automatically: repair it, or move it away/);
		}

		const response = await memory.worker.request({id: 500, event: 'before_turn', workspace_id: memory.workspaceId, paths: memory.folders.paths, data: {messages: [{role: 'user', content: 'hi'}]}});
		assert.ok(response.error?.includes(memory.file), response.error);
		assert.equal(await readFile(memory.file, 'utf8'), content);
	}
});

test('eight concurrent writer processes lose no entry, and the file always parses while they write', async t => {
	const folders = await makeFolders(t);
	const workspaceId = randomUUID();
	const writers = await Promise.all(Array.from({length: 8}, async () => startMemory(t, {folders, workspaceId})));
	const perWriter = 25;
	const file = writers[0]!.file;
	let writing = true;
	let reads = 0;
	let lastCount = 0;
	const reader = (async () => {
		while (writing) {
			let text: string;
			try {
				text = await readFile(file, 'utf8');
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
				throw error;
			}

			const json = JSON.parse(text);
			assert.equal(json.version, 1);
			const count = Object.keys(json.entries).length;
			assert.ok(count >= lastCount, 'entries only ever grow');
			lastCount = count;
			reads++;
			await new Promise(resolve => setImmediate(resolve));
		}
	})();

	await Promise.all(
		writers.map(async (writer, w) => {
			for (let index = 0; index < perWriter; index++) await writer.call('memory_write', {key: `w${w}/k${index}`, text: `writer ${w} note ${index}`});
		}),
	);
	writing = false;
	await reader;
	assert.ok(reads > 10, `the reader read the file only ${reads} times`);

	const json = await readJson(file);
	const expected = writers.flatMap((_, w) => Array.from({length: perWriter}, (_, index) => `w${w}/k${index}`)).sort();
	assert.deepEqual(Object.keys(json.entries).sort(), expected);
	for (const key of expected) assert.equal(json.entries[key].text, `writer ${key.slice(1, 2)} note ${key.split('/k')[1]}`);
	const listed = JSON.parse(await writers[3]!.call('memory_read', {}));
	assert.equal(listed.count, 200);
	for (const writer of writers) assert.equal((await writer.worker.close()).code, 0);
});

const system = {role: 'system', content: 'sys'};
const isMemory = (message: any) => message._context?.source === 'memory';

test('before_turn shows the memory as a full snapshot, then nothing while unchanged, then a delta', async t => {
	const memory = await startMemory(t);
	// Nothing stored, nothing shown.
	let messages: any[] = [system, {role: 'user', content: 'one'}];
	assert.deepEqual((await memory.hook('before_turn', {messages, extra: 1})).messages, messages);

	await memory.call('memory_write', {key: 'lang', text: 'TypeScript'});
	let data = await memory.hook('before_turn', {messages, extra: 1});
	assert.equal(data.extra, 1, 'the rest of the data passes through');
	assert.deepEqual(data.messages.slice(0, 2), messages);
	assert.equal(data.messages.length, 3);
	assert.deepEqual(data.messages[2]._context, {source: 'memory', kind: 'full'});
	assert.match(data.messages[2].content, /<context source="memory" kind="full" trust="untrusted">/);
	messages = [...data.messages, {role: 'assistant', content: 'ok'}, {role: 'user', content: 'two'}];

	assert.equal((await memory.hook('before_turn', {messages})).messages.length, messages.length, 'unchanged: nothing appended');

	await memory.call('memory_write', {key: 'lang', text: 'Rust'});
	await memory.call('memory_write', {key: 'ci', text: 'GitHub Actions'});
	data = await memory.hook('before_turn', {messages});
	assert.equal(data.messages.length, messages.length + 1);
	assert.deepEqual(data.messages.at(-1)._context, {source: 'memory', kind: 'delta'});
	assert.deepEqual(stateFromHistory(data.messages, 'memory'), {lang: 'Rust', ci: 'GitHub Actions'});
	messages = data.messages;

	await memory.call('memory_delete', {key: 'ci'});
	data = await memory.hook('before_turn', {messages});
	assert.deepEqual(stateFromHistory(data.messages, 'memory'), {lang: 'Rust'});
});

test('before_compact_commit restores the full memory snapshot a compaction removed', async t => {
	const memory = await startMemory(t);
	await memory.call('memory_write', {key: 'lang', text: 'Go'});
	const summary = {role: 'user', content: 'summary of earlier work', [SUMMARY_MARKER]: true};
	const tail = [
		{role: 'user', content: 'latest'},
		{role: 'assistant', content: 'ok'},
	];
	const data = await memory.hook('before_compact_commit', {messages: [system, summary, ...tail], cut: 3});
	assert.equal(data.cut, 3);
	assert.equal(data.messages.length, 5);
	assert.deepEqual(data.messages.slice(0, 2), [system, summary]);
	assert.ok(isMemory(data.messages[2]));
	assert.deepEqual(data.messages.slice(3), tail, 'the kept tail stays verbatim');
	assert.deepEqual(stateFromHistory(data.messages, 'memory'), {lang: 'Go'});
	// A candidate that still has its full snapshot comes back as it was.
	assert.deepEqual((await memory.hook('before_compact_commit', {messages: data.messages})).messages, data.messages);
});

test('with memory.json {"inject": false} (default file or --config) both hooks pass the data through', async t => {
	const folders = await makeFolders(t);
	await writeFile(join(folders.config, 'memory.json'), JSON.stringify({inject: false}));
	const fromDefault = await startMemory(t, {folders});
	await writeFile(join(folders.root, 'other.json'), JSON.stringify({inject: false}));
	const otherFolders = await makeFolders(t);
	const fromFlag = await startMemory(t, {folders: otherFolders, args: ['--config', join(folders.root, 'other.json')]});
	for (const memory of [fromDefault, fromFlag]) {
		await memory.call('memory_write', {key: 'lang', text: 'Go'});
		const messages = [system, {role: 'user', content: 'hi'}];
		assert.deepEqual(await memory.hook('before_turn', {messages}), {messages});
		const candidate = [system, {role: 'user', content: 'summary', [SUMMARY_MARKER]: true}];
		assert.deepEqual(await memory.hook('before_compact_commit', {messages: candidate}), {messages: candidate});
		// The tools work as ever.
		assert.equal(JSON.parse(await memory.call('memory_read', {key: 'lang'})).text, 'Go');
	}

	// The default-on case, for contrast, and a bad config named with its field.
	const on = await startMemory(t);
	await on.call('memory_write', {key: 'lang', text: 'Go'});
	assert.equal((await on.hook('before_turn', {messages: [system]})).messages.length, 2);
	await writeFile(join(folders.config, 'memory.json'), JSON.stringify({inject: 'yes'}));
	const bad = await startMemory(t, {folders});
	const response = await bad.worker.request({id: 1, event: 'before_turn', workspace_id: bad.workspaceId, paths: folders.paths, data: {messages: [system]}});
	assert.match(response.error, /memory config .*memory\.json: field "inject"/);
});

test('the listing without a key is cut at 40000 characters: entries that fit are shown, the rest named by key', async t => {
	const memory = await startMemory(t);
	const itemSize = (key: string, chars: number) => JSON.stringify({key, text: 'x'.repeat(chars), updated_at: new Date().toISOString()}).length;
	const empty = itemSize('a', 0);
	// a, b, c and d fill the 40000 characters exactly; e is one entry past them.
	const sizes = [9000, 9000, 9000, 40_000 - 4 * empty - 27_000];
	for (const [index, chars] of sizes.entries()) await memory.call('memory_write', {key: 'abcd'[index]!, text: 'x'.repeat(chars)});
	const full = JSON.parse(await memory.call('memory_read', {}));
	assert.equal(full.entries.length, 4, 'at the limit every entry is shown');
	assert.equal(full.note, undefined);
	await memory.call('memory_write', {key: 'e', text: 'y'});
	const cut = JSON.parse(await memory.call('memory_read', {}));
	assert.equal(cut.count, 5);
	assert.deepEqual(
		cut.entries.map((entry: {key: string}) => entry.key),
		['a', 'b', 'c', 'd'],
	);
	assert.deepEqual(cut.omitted, ['e']);
	assert.equal(cut.note, '1 entries left out to keep this short; read each with memory_read and its key');
	assert.equal(JSON.parse(await memory.call('memory_read', {key: 'e'})).text, 'y');
});

test('a memory.json over 2 MiB is not read: an error naming the file; at 2 MiB it is read', async t => {
	const memory = await startMemory(t);
	await mkdir(join(memory.file, '..'), {recursive: true});
	const json = JSON.stringify({version: 1, entries: {a: {text: 'kept', updated_at: new Date().toISOString()}}});
	await writeFile(memory.file, json.padEnd(2 * 1024 * 1024, ' '));
	assert.equal(JSON.parse(await memory.call('memory_read', {key: 'a'})).text, 'kept');
	await writeFile(memory.file, json.padEnd(2 * 1024 * 1024 + 1, ' '));
	const error = await memory.fails('memory_read', {key: 'a'});
	assert.equal(error, `memory file ${memory.file}: the file is over ${2 * 1024 * 1024} bytes, the limit; it was not written by i: repair it or move it away`);
});
