import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {resolveDirs} from '../../source/core/config/dirs.js';
import {findWorkspaceId} from '../../source/core/config/workspace-registry.js';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';
import {runInTerminal} from '../helpers/pty.js';

const KEY = 'sk-test-secret-123';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

interface Setup {
	mock: MockProvider;
	box: Sandbox;
}

async function setup(t: {after: (fn: () => Promise<void>) => void}, options: {providerFile?: Record<string, unknown> | null; operations?: boolean} = {}): Promise<Setup> {
	const mock = await startMockProvider({files: true});
	t.after(async () => mock.close());
	const box = makeSandbox();
	box.writeConfig({protocol: 'deepseek', base_url: mock.baseUrl('deepseek'), model: 'deepseek-flash', ...(options.operations === false ? {} : {provider_operations: true})});
	const providerFile = options.providerFile === undefined ? {images: 'files'} : options.providerFile;
	if (providerFile !== null) writeFileSync(join(box.configDir, 'provider.json'), JSON.stringify(providerFile));
	writeFileSync(join(box.workspace, 'pic.png'), PNG);
	return {mock, box};
}

const chats = (mock: MockProvider) => mock.requests.filter(request => request.path === '/chat/completions');
const fileCalls = (mock: MockProvider, method: string) => mock.requests.filter(request => request.path.startsWith('/files') && request.method === method);

/** A turn in which the model looks at pic.png (view_image needs no approval) and then answers. */
async function imageTurn({mock, box}: Setup, session: string) {
	mock.enqueue({toolCalls: [{id: 'v1', name: 'view_image', arguments: JSON.stringify({paths: ['pic.png']})}]}, {text: 'a tiny png'});
	return runCli(['-p', 'look at pic.png', '--session', session, '-C', box.workspace], {env: box.env});
}

async function registryFile(box: Sandbox): Promise<string> {
	const dirs = resolveDirs(box.env);
	const id = await findWorkspaceId(box.workspace, dirs);
	assert.ok(id);
	return join(dirs.data_dir, 'workspaces', id, 'provider-files.json');
}

test('provider.json asking for files without provider_operations, and provider_operations alone, each refuse the start (exit 2) naming the other', async t => {
	const alone = await setup(t, {operations: false});
	const first = await runCli(['-p', 'hi', '-C', alone.box.workspace], {env: alone.box.env});
	assert.equal(first.code, 2);
	assert.match(first.stderr, /provider config .*provider\.json: "images": "files" uploads images to the provider, which the API config must also allow: set "provider_operations": true in .*config\.json/);
	const operations = await setup(t, {providerFile: null});
	const second = await runCli(['-p', 'hi', '-C', operations.box.workspace], {env: operations.box.env});
	assert.equal(second.code, 2);
	assert.match(second.stderr, /"provider_operations": true allows provider-side operations, but .*provider\.json asks for none .*set "images": "files" in /);
	assert.equal(alone.mock.requests.length + operations.mock.requests.length, 0, 'nothing was sent');
});

test('with both: an image a tool returned is uploaded once and sent by file ID, this turn and the next run; the registry lists it without the key', async t => {
	const setupBoth = await setup(t);
	const {mock, box} = setupBoth;
	const session = join(box.root, 's.json');
	const run = await imageTurn(setupBoth, session);
	assert.equal(run.code, 0, run.stderr);
	assert.equal(fileCalls(mock, 'POST').length, 1);
	const [file] = [...mock.files!.files.values()];
	assert.deepEqual(file!.content, PNG);
	const second = chats(mock)[1]!.body as {messages: Array<{role: string; content: unknown}>};
	const image = second.messages.find(message => message.role === 'user' && Array.isArray(message.content));
	assert.deepEqual(image?.content, [
		{type: 'text', text: 'Images from tool call v1:'},
		{type: 'file', file_id: file!.id},
	]);
	assert.ok(!JSON.stringify(second).includes('base64'), 'no inline image');

	// The next run resumes the session: the history's image goes by the same ID, with no new upload.
	mock.enqueue({text: 'still a png'});
	const again = await runCli(['-p', 'and now?', '--session', session, '-C', box.workspace], {env: box.env});
	assert.equal(again.code, 0, again.stderr);
	assert.equal(fileCalls(mock, 'POST').length, 1);
	assert.ok(JSON.stringify(chats(mock)[2]!.body).includes(`{"type":"file","file_id":"${file!.id}"}`));

	const registry = readFileSync(await registryFile(box), 'utf8');
	assert.ok(!registry.includes(KEY));
	const listed = await runCli(['--provider-action', 'list', '-C', box.workspace, '--json'], {env: box.env});
	assert.equal(listed.code, 0, listed.stderr);
	const json = JSON.parse(listed.stdout) as {files: Array<Record<string, unknown>>; remote: null};
	assert.equal(json.remote, null, 'the local registry only: no network');
	assert.equal(json.files.length, 1);
	assert.equal(json.files[0]!.id, file!.id);
	assert.equal(json.files[0]!.size, PNG.byteLength);
	assert.equal(json.files[0]!.expired, false);
	assert.equal(fileCalls(mock, 'GET').length, 0);
	const remote = await runCli(['--provider-action', 'list', '--remote', '-C', box.workspace], {env: box.env});
	assert.equal(remote.code, 0, remote.stderr);
	assert.match(
		remote.stdout,
		new RegExp(
			`registry: .*provider-files\\.json\\n  ${file!.id}  image-[0-9a-f]{16}\\.png  12 bytes  created .*  never expires  scope TEST_API_KEY@http://127\\.0\\.0\\.1:\\d+\\nremote: 1 file\\n  ${file!.id}  image-[0-9a-f]{16}\\.png  12 bytes  created .*  never expires  \\(in the registry\\)\\n$`,
		),
	);
	assert.ok(!remote.stdout.includes(KEY) && !remote.stderr.includes(KEY));
});

test('delete without a terminal is refused unless --confirm-delete; --yolo is no confirmation; with it the DELETE is sent once and the entry dropped', async t => {
	const setupBoth = await setup(t);
	const {mock, box} = setupBoth;
	assert.equal((await imageTurn(setupBoth, join(box.root, 's.json'))).code, 0);
	const [file] = [...mock.files!.files.values()];
	for (const extra of [[], ['--yolo'], ['--dangerously-skip-permissions']]) {
		const refused = await runCli(['--provider-action', 'delete', file!.id, '-C', box.workspace, ...extra], {env: box.env});
		assert.equal(refused.code, 2, extra.join(' '));
		assert.match(refused.stderr, /no terminal to confirm on: a DELETE always asks, so without a terminal it needs --confirm-delete \(--yolo does not stand for it\); nothing was deleted/);
	}

	assert.equal(fileCalls(mock, 'DELETE').length, 0);
	const deleted = await runCli(['--provider-action', 'delete', file!.id, '--confirm-delete', '-C', box.workspace], {env: box.env});
	assert.equal(deleted.code, 0, deleted.stderr);
	assert.match(deleted.stdout, new RegExp(`^deleted ${file!.id} from the provider; dropped it from .*provider-files\\.json\\n$`));
	assert.equal(fileCalls(mock, 'DELETE').length, 1);
	assert.equal(mock.files!.files.size, 0);
	assert.deepEqual(JSON.parse(readFileSync(await registryFile(box), 'utf8')).files, []);
});

test('a DELETE answered with a 5xx is not retried: exit 1, one request, the message says so and never holds the key', async t => {
	const setupBoth = await setup(t);
	const {mock, box} = setupBoth;
	assert.equal((await imageTurn(setupBoth, join(box.root, 's.json'))).code, 0);
	const [file] = [...mock.files!.files.values()];
	mock.files!.failNext('DELETE', 503, 3);
	const run = await runCli(['--provider-action', 'delete', file!.id, '--confirm-delete', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 1);
	assert.equal(fileCalls(mock, 'DELETE').length, 1, 'sent once');
	assert.match(run.stderr, new RegExp(`deepseek files: delete ${file!.id}: HTTP 503: mock files failure for \\[redacted\\]; a DELETE is never retried`));
	assert.ok(!run.stderr.includes(KEY));
	// Still on the provider, still in the registry.
	assert.equal(mock.files!.files.size, 1);
	assert.equal(JSON.parse(readFileSync(await registryFile(box), 'utf8')).files.length, 1);
});

test('prune drops the entries of expired files from the registry, locally; list marks them expired first', async t => {
	const setupBoth = await setup(t);
	const {mock, box} = setupBoth;
	assert.equal((await imageTurn(setupBoth, join(box.root, 's.json'))).code, 0);
	const path = await registryFile(box);
	const registry = JSON.parse(readFileSync(path, 'utf8'));
	registry.files[0].expires = new Date(Date.now() - 1000).toISOString();
	writeFileSync(path, JSON.stringify(registry));
	const listed = await runCli(['--provider-action', 'list', '-C', box.workspace], {env: box.env});
	assert.match(listed.stdout, / expired \d{4}-/);
	const pruned = await runCli(['--provider-action', 'prune', '-C', box.workspace, '--json'], {env: box.env});
	assert.equal(pruned.code, 0, pruned.stderr);
	assert.deepEqual(JSON.parse(pruned.stdout), {registry: path, pruned: [registry.files[0].id]});
	assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')).files, []);
	assert.equal(fileCalls(mock, 'DELETE').length + fileCalls(mock, 'GET').length, 0, 'no network');
});

test('the remote actions need both authorisations too; a bad action or ID is a usage error', async t => {
	const {box} = await setup(t, {operations: false});
	const remote = await runCli(['--provider-action', 'list', '--remote', '-C', box.workspace], {env: box.env});
	assert.equal(remote.code, 2);
	assert.match(remote.stderr, /set "provider_operations": true in /);
	const local = await runCli(['--provider-action', 'list', '-C', box.workspace], {env: box.env});
	assert.equal(local.code, 0, local.stderr);
	assert.equal(local.stdout, 'registry: none (this workspace was never used)\n  no files recorded\n');
	for (const [args, pattern] of [
		[['lst'], /needs an action: list, delete, prune \(not "lst"; did you mean list\?\)/],
		[['delete'], /delete takes one file ID \(got none\)/],
		[['delete', '../etc'], /"..\/etc" is not a file ID/],
		[['list', '--confirm-delete'], /--confirm-delete belongs to delete/],
		[['prune', '--remote'], /--remote belongs to list/],
	] as const) {
		const run = await runCli(['--provider-action', ...args, '-C', box.workspace], {env: box.env});
		assert.equal(run.code, 2, args.join(' '));
		assert.match(run.stderr, pattern);
	}

	for (const args of [
		['-C', box.workspace, '--provider-action', 'list'],
		['--json', '--provider-action', 'delete', 'x'],
	]) {
		const run = await runCli(args, {env: box.env});
		assert.equal(run.code, 2, args.join(' '));
		assert.match(run.stderr, /--provider-action is a channel of its own and comes first/);
	}
});

for (const [answer, typed, deleted] of [
	['yes', 'yes\r', true],
	['no', 'no\r', false],
	['EOF', '\u0004', false],
	['yes with --yolo', 'yes\r', true],
] as const) {
	test(`at a terminal a DELETE asks, --yolo or not: ${answer} ${deleted ? 'deletes' : 'keeps the file'}`, async t => {
		const setupBoth = await setup(t);
		const {mock, box} = setupBoth;
		assert.equal((await imageTurn(setupBoth, join(box.root, 's.json'))).code, 0);
		const [file] = [...mock.files!.files.values()];
		const yolo = answer.includes('--yolo') ? ['--yolo'] : [];
		const terminal = runInTerminal(['--provider-action', 'delete', file!.id, '-C', box.workspace, ...yolo], {env: box.env});
		t.after(async () => terminal.close());
		await terminal.waitForOutput(output => output.includes('Type yes to delete:'), 'the question');
		if (yolo.length > 0) assert.match(terminal.output(), /--yolo lets tools run without asking; it never confirms a provider DELETE/);
		assert.match(terminal.output(), new RegExp(`Delete ${file!.id} \\(image-[0-9a-f]{16}\\.png, 12 bytes, uploaded .*\\) from the provider account\\? It cannot be undone\\.`));
		assert.equal(fileCalls(mock, 'DELETE').length, 0, 'nothing before the answer');
		terminal.type(typed);
		const exit = await terminal.exit();
		assert.equal(exit.exitCode, deleted ? 0 : 1, terminal.output());
		assert.equal(fileCalls(mock, 'DELETE').length, deleted ? 1 : 0);
		assert.equal(mock.files!.files.size, deleted ? 0 : 1);
		if (!deleted) assert.match(terminal.output(), /not deleted/);
	});
}

/** A sandbox with provider.json asking for files, `config`, and a models.json that sends the catalogue's deepseek and openai to `mock`; their keys in their variables. */
function catalogueBox(mock: MockProvider, config: Record<string, unknown>): Sandbox {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'config.json'), JSON.stringify(config));
	writeFileSync(join(box.configDir, 'provider.json'), JSON.stringify({images: 'files'}));
	// A model of DeepSeek's that reads images, whatever the package lists.
	const deepseek = {baseUrl: mock.baseUrl('deepseek'), models: [{id: 'deepseek-files-test', input: ['text', 'image']}]};
	writeFileSync(join(box.configDir, 'models.json'), JSON.stringify({providers: {deepseek, openai: {baseUrl: mock.baseUrl('openai')}}}));
	writeFileSync(join(box.workspace, 'pic.png'), PNG);
	return {...box, env: {...box.env, DEEPSEEK_API_KEY: KEY, OPENAI_API_KEY: 'sk-openai-files-test'}};
}

test('by catalogue the rule is the same: --model deepseek/… and a config choosing "provider": "deepseek" upload the image through the Files channel; either authorisation alone is refused', async t => {
	const mock = await startMockProvider({files: true});
	t.after(async () => mock.close());
	for (const [config, args] of [
		[{provider_operations: true}, ['--model', 'deepseek/deepseek-files-test']],
		[{provider: 'deepseek', model: 'deepseek-files-test', provider_operations: true}, []],
	] as const) {
		const box = catalogueBox(mock, config);
		const uploads = fileCalls(mock, 'POST').length;
		const from = chats(mock).length;
		mock.enqueue({toolCalls: [{id: 'v1', name: 'view_image', arguments: JSON.stringify({paths: ['pic.png']})}]}, {text: 'a tiny png'});
		const run = await runCli(['-p', 'look at pic.png', ...args, '-C', box.workspace], {env: box.env});
		assert.equal(run.code, 0, run.stderr);
		assert.equal(fileCalls(mock, 'POST').length, uploads + 1, 'one upload');
		const second = JSON.stringify(chats(mock)[from + 1]!.body);
		assert.match(second, /\{"type":"file","file_id":"[^"]+"\}/);
		assert.ok(!second.includes('base64'), 'no inline image');
		assert.equal(chats(mock)[from + 1]!.headers.authorization, `Bearer ${KEY}`);
		if (!('provider' in config)) continue;
		// The remote actions of a config that chooses "provider": "deepseek" reach the catalogue's endpoint with its key.
		const listed = await runCli(['--provider-action', 'list', '--remote', '-C', box.workspace], {env: box.env});
		assert.equal(listed.code, 0, listed.stderr);
		for (const file of mock.files!.files.values()) assert.ok(listed.stdout.includes(`${file.id}  `), listed.stdout);
		assert.equal(fileCalls(mock, 'GET').at(-1)!.headers.authorization, `Bearer ${KEY}`);
	}

	const alone = catalogueBox(mock, {});
	const refused = await runCli(['-p', 'hi', '--model', 'deepseek/deepseek-files-test', '-C', alone.workspace], {env: alone.env});
	assert.equal(refused.code, 2);
	assert.match(refused.stderr, /"images": "files" uploads images to the provider, which the API config must also allow: set "provider_operations": true/);
});

test("a flag choosing a model that is not DeepSeek's with the Files channel set: its images go inline, and that is said", async t => {
	const mock = await startMockProvider({files: true});
	t.after(async () => mock.close());
	const box = catalogueBox(mock, {provider: 'deepseek', provider_operations: true});
	mock.enqueue({toolCalls: [{id: 'v1', name: 'view_image', arguments: JSON.stringify({paths: ['pic.png']})}]}, {text: 'inline png'});
	const run = await runCli(['-p', 'look at pic.png', '--model', 'openai/gpt-4.1', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stderr, /images to openai\/gpt-4\.1 \(--model\) go inline: the Files channel of .*provider\.json is DeepSeek's/);
	assert.equal(fileCalls(mock, 'POST').length, 0);
	assert.ok(JSON.stringify(mock.requests.filter(request => request.path === '/v1/chat/completions')[1]!.body).includes('base64'));
});
