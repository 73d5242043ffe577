import assert from 'node:assert/strict';
import {mkdtemp, readFile, realpath, rm, stat, writeFile, mkdir} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test, type TestContext} from 'node:test';
import type {ProviderFileConfig} from '../../source/core/config/provider-file.js';
import type {Message} from '../../source/core/messages.js';
import {DeepSeekFilesChannel} from '../../source/core/providers/deepseek-files/channel.js';
import {FileRegistry, MAX_REGISTRY_FILES, type RegistryEntry} from '../../source/core/providers/deepseek-files/registry.js';
import {createDeepSeekAdapter} from '../../source/core/providers/deepseek.js';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';

const KEY = 'sk-files-secret-0123456789';
const png = (byte: number) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from([byte, byte, byte, byte])]);
const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;
const withImages = (...urls: string[]): Message[] => [
	{role: 'user', content: [{type: 'text', text: 'look'}, ...urls.map(url => ({type: 'image_url' as const, image_url: {url}}))]},
	{role: 'assistant', content: 'ok'},
	{role: 'user', content: [{type: 'image_url', image_url: {url: urls[0]!}}], _tool_call_id: 'call-1'},
];

interface Setup {
	mock: MockProvider;
	registry: FileRegistry;
	warnings: string[];
	channel(config?: Partial<ProviderFileConfig>, now?: () => number): DeepSeekFilesChannel;
}

async function setup(t: TestContext): Promise<Setup> {
	const mock = await startMockProvider({files: true});
	const root = await realpath(await mkdtemp(join(tmpdir(), 'i-files-')));
	t.after(async () => {
		await mock.close();
		await rm(root, {recursive: true, force: true});
	});
	const registry = new FileRegistry(join(root, 'workspaces', 'w', 'provider-files.json'));
	const warnings: string[] = [];
	return {
		mock,
		registry,
		warnings,
		channel: (config = {}, now) =>
			new DeepSeekFilesChannel({
				baseUrl: mock.origin,
				headers: {authorization: `Bearer ${KEY}`},
				config: {images: 'files', auto_refresh: false, auto_prune: false, ...config},
				accountScope: 'DEEPSEEK_API_KEY@test',
				registry: async () => registry,
				retry: {maxRetries: 3, sleep: async () => {}},
				warn: message => warnings.push(message),
				...(now ? {now} : {}),
			}),
	};
}

const uploads = (mock: MockProvider) => mock.requests.filter(request => request.method === 'POST' && request.path === '/files');

test('an image is uploaded once (deduplicated by content hash) and referred to by its file ID, in this request and later ones', async t => {
	const {mock, registry, channel, warnings} = await setup(t);
	const image = dataUrl(png(1));
	const files = channel({expires_after_seconds: 7200});
	const first = await files.reference(withImages(image, image), undefined);
	assert.equal(uploads(mock).length, 1, 'one upload for the same image three times');
	const id = first.get(image);
	assert.match(id ?? '', /^file-api-/);
	const second = await files.reference([...withImages(image), {role: 'user', content: 'more'}], undefined);
	assert.equal(second.get(image), id);
	assert.equal(uploads(mock).length, 1, 'a later request reuses the file');
	assert.deepEqual(warnings, []);

	// The upload's wire: purpose first, the expiry pair, the bytes; the key only in its header.
	const stored = mock.files!.files.get(id!)!;
	assert.deepEqual(stored.content, png(1));
	assert.equal(stored.mediaType, 'image/png');
	assert.deepEqual(stored.expiresAfter, {anchor: 'created_at', seconds: 7200});
	assert.equal(uploads(mock)[0]!.headers.authorization, `Bearer ${KEY}`);

	// The adapter sends the reference in place of the inline image.
	const adapter = createDeepSeekAdapter({model: 'deepseek-flash', baseUrl: mock.origin, useMaxTokens: false, extraBody: {}});
	const body = adapter.prepare(withImages(image), [], second).body as {messages: Array<{content: unknown}>};
	assert.deepEqual(body.messages[0]!.content, [
		{type: 'text', text: 'look'},
		{type: 'file', file_id: id},
	]);
	assert.deepEqual(body.messages[2]!.content, [{type: 'file', file_id: id}]);
	assert.ok(!JSON.stringify(body).includes('base64'), 'no image inline');

	// The registry: what was uploaded, for whom, until when; never a key.
	const [entry, ...rest] = await registry.entries();
	assert.deepEqual(rest, []);
	assert.deepEqual(Object.keys(entry!).sort(), ['account_scope', 'created', 'expires', 'hash', 'id', 'name', 'purpose', 'size'].sort());
	assert.equal(entry!.id, id);
	assert.match(entry!.hash, /^sha256:[0-9a-f]{64}$/);
	assert.equal(entry!.size, png(1).byteLength);
	assert.equal(entry!.purpose, 'user_data');
	assert.equal(entry!.account_scope, 'DEEPSEEK_API_KEY@test');
	assert.equal(Date.parse(entry!.expires!) - Date.parse(entry!.created), 7200 * 1000);
	const text = await readFile(registry.path, 'utf8');
	assert.ok(!text.includes(KEY) && !text.includes('Bearer'), 'no key in the registry');
	assert.equal((await stat(registry.path)).mode & 0o777, 0o600);
});

test('an expired file goes inline without auto_refresh, and is uploaded again with it', async t => {
	const {mock, registry, channel} = await setup(t);
	const image = dataUrl(png(2));
	let clock = Date.now();
	const now = () => clock;
	await channel({expires_after_seconds: 3600}, now).reference(withImages(image), undefined);
	const [first] = await registry.entries();
	// Ten minutes before the end already counts as expired: a turn must not lose its file halfway.
	clock = Date.parse(first!.expires!) - 9 * 60 * 1000;
	const inline = await channel({expires_after_seconds: 3600}, now).reference(withImages(image), undefined);
	assert.equal(inline.size, 0, 'the image goes inline');
	assert.equal(uploads(mock).length, 1, 'no upload without auto_refresh');
	const refreshed = await channel({expires_after_seconds: 3600, auto_refresh: true}, now).reference(withImages(image), undefined);
	assert.equal(uploads(mock).length, 2);
	assert.notEqual(refreshed.get(image), first!.id);
	const entries = await registry.entries();
	assert.deepEqual(
		entries.map(entry => entry.id),
		[refreshed.get(image)],
		'the new upload replaces the old entry',
	);
});

test('auto_prune drops the entries of expired files as the registry is written; without it they stay', async t => {
	const {mock, registry, channel} = await setup(t);
	let clock = Date.now();
	const now = () => clock;
	mock.files!.now = () => Math.floor(clock / 1000);
	await channel({expires_after_seconds: 3600}, now).reference(withImages(dataUrl(png(3))), undefined);
	clock += 2 * 3600 * 1000;
	await channel({expires_after_seconds: 3600}, now).reference(withImages(dataUrl(png(4))), undefined);
	assert.equal((await registry.entries()).length, 2);
	await channel({expires_after_seconds: 3600, auto_prune: true}, now).reference(withImages(dataUrl(png(5))), undefined);
	const entries = await registry.entries();
	assert.equal(entries.length, 2, 'the expired one went, the new one came');
	assert.ok(entries.every(entry => Date.parse(entry.expires!) > clock));
});

test('an upload failing with a 5xx is not retried: the image goes inline, the warning says why and never holds the key', async t => {
	const {mock, channel, warnings, registry} = await setup(t);
	mock.files!.failNext('POST', 500);
	const image = dataUrl(png(6));
	const references = await channel().reference(withImages(image), undefined);
	assert.equal(references.size, 0);
	assert.equal(uploads(mock).length, 1, 'one attempt');
	assert.equal(warnings.length, 1);
	assert.match(warnings[0]!, /^deepseek files: upload of image-[0-9a-f]{16}\.png: HTTP 500: mock files failure for \[redacted\]; the image goes inline instead \(the file may have been stored/);
	assert.ok(!warnings[0]!.includes(KEY));
	assert.deepEqual(await registry.entries(), []);
});

test('an upload turned away with 429 is retried: the server stored nothing', async t => {
	const {mock, channel, warnings} = await setup(t);
	mock.files!.failNext('POST', 429, 2);
	const image = dataUrl(png(7));
	const references = await channel().reference(withImages(image), undefined);
	assert.equal(uploads(mock).length, 3);
	assert.match(references.get(image) ?? '', /^file-api-/);
	assert.deepEqual(warnings, []);
});

test(`a registry at its ${MAX_REGISTRY_FILES} files takes no more: the upload is used once and the warning says how to make room`, async t => {
	const {registry, channel, warnings} = await setup(t);
	const created = new Date().toISOString();
	const entry = (index: number): RegistryEntry => ({
		id: `file-api-old-${index}`,
		hash: `sha256:${index.toString(16).padStart(64, '0')}`,
		name: `image-${index}.png`,
		size: 12,
		purpose: 'user_data',
		account_scope: 'DEEPSEEK_API_KEY@test',
		created,
		expires: null,
	});
	await mkdir(join(registry.path, '..'), {recursive: true});
	await writeFile(registry.path, JSON.stringify({version: 1, files: Array.from({length: MAX_REGISTRY_FILES}, (_, index) => entry(index))}));
	const image = dataUrl(png(8));
	const references = await channel().reference(withImages(image), undefined);
	assert.match(references.get(image) ?? '', /^file-api-/);
	assert.equal(warnings.length, 1);
	assert.match(warnings[0]!, new RegExp(`holds ${MAX_REGISTRY_FILES} files, its limit; delete files .* or allow "auto_prune" in provider.json; file-api-\\d+ was uploaded but is not recorded$`));
	assert.equal((await registry.entries()).length, MAX_REGISTRY_FILES);
	// One past the limit is a corrupt file, named, never reset.
	await writeFile(registry.path, JSON.stringify({version: 1, files: Array.from({length: MAX_REGISTRY_FILES + 1}, (_, index) => entry(index))}));
	await assert.rejects(registry.entries(), (error: Error) => error.message.startsWith(`provider file registry ${registry.path} is corrupt`));
});

test('the Files calls follow no redirect: a 302 to the upload fails it (the image goes inline) and the target never hears of it', async t => {
	const {createServer} = await import('node:http');
	const hits: string[] = [];
	const target = createServer((request, response) => {
		hits.push(`${request.method} ${request.url}`);
		response.end('{}');
	});
	await new Promise<void>(resolve => target.listen(0, '127.0.0.1', resolve));
	const targetPort = (target.address() as {port: number}).port;
	const redirecting = createServer((request, response) => {
		request.resume();
		response.writeHead(302, {location: `http://127.0.0.1:${targetPort}/files`});
		response.end();
	});
	await new Promise<void>(resolve => redirecting.listen(0, '127.0.0.1', resolve));
	t.after(() => {
		target.close();
		redirecting.close();
		target.closeAllConnections();
		redirecting.closeAllConnections();
	});
	const root = await realpath(await mkdtemp(join(tmpdir(), 'i-files-')));
	t.after(async () => rm(root, {recursive: true, force: true}));
	const warnings: string[] = [];
	const channel = new DeepSeekFilesChannel({
		baseUrl: `http://127.0.0.1:${(redirecting.address() as {port: number}).port}`,
		headers: {authorization: `Bearer ${KEY}`},
		config: {images: 'files', auto_refresh: false, auto_prune: false},
		accountScope: 'scope',
		registry: async () => new FileRegistry(join(root, 'provider-files.json')),
		warn: message => warnings.push(message),
	});
	const references = await channel.reference(withImages(dataUrl(png(9))), undefined);
	assert.equal(references.size, 0);
	assert.equal(warnings.length, 1);
	assert.match(warnings[0]!, /HTTP 302: redirects are not followed; the image goes inline instead$/);
	assert.deepEqual(hits, []);
});

test('an upload is retried after a refused connection (nothing reached the server) but not after a reset (the file may exist)', async t => {
	const {createServer} = await import('node:http');
	const root = await realpath(await mkdtemp(join(tmpdir(), 'i-files-')));
	t.after(async () => rm(root, {recursive: true, force: true}));
	// A port nothing listens on until the first retry's wait: the first attempt is refused.
	const probe = createServer();
	await new Promise<void>(resolve => probe.listen(0, '127.0.0.1', resolve));
	const port = (probe.address() as {port: number}).port;
	await new Promise<void>(resolve => probe.close(() => resolve()));
	let mode: 'answer' | 'reset' = 'answer';
	const posts: string[] = [];
	const server = createServer((request, response) => {
		request.resume();
		request.on('end', () => {
			posts.push(`${request.method} ${request.url}`);
			if (mode === 'reset') {
				request.socket.destroy();
				return;
			}

			response.writeHead(200, {'content-type': 'application/json'});
			response.end(JSON.stringify({id: `file-api-${posts.length}`, object: 'file', bytes: 12, created_at: 1_700_000_000, filename: 'x.png', purpose: 'user_data'}));
		});
	});
	t.after(() => {
		server.close();
		server.closeAllConnections();
	});
	let waits = 0;
	const warnings: string[] = [];
	const channel = new DeepSeekFilesChannel({
		baseUrl: `http://127.0.0.1:${port}`,
		headers: {authorization: `Bearer ${KEY}`},
		config: {images: 'files', auto_refresh: false, auto_prune: false},
		accountScope: 'scope',
		registry: async () => new FileRegistry(join(root, 'provider-files.json')),
		retry: {
			maxRetries: 3,
			async sleep() {
				waits++;
				if (!server.listening) await new Promise<void>(resolve => server.listen(port, '127.0.0.1', resolve));
			},
		},
		warn: message => warnings.push(message),
	});
	const image = dataUrl(png(10));
	const references = await channel.reference(withImages(image), undefined);
	assert.equal(waits, 1, 'one retry, after the refused connection');
	assert.deepEqual(posts, ['POST /files']);
	assert.equal(references.get(image), 'file-api-1');
	assert.equal(warnings.length, 0);

	mode = 'reset';
	const other = dataUrl(png(11));
	const none = await channel.reference(withImages(other), undefined);
	assert.equal(none.size, 0);
	assert.equal(posts.length, 2, 'the reset upload was not sent again');
	assert.equal(waits, 1);
	assert.equal(warnings.length, 1);
	assert.match(warnings[0]!, /connection failed .*the image goes inline instead \(the file may have been stored all the same/);
	assert.ok(!warnings[0]!.includes(KEY));
});

test('a Files answer that is not JSON, not the expected shape, or over the size limit fails naming the call and what was wrong', async t => {
	const {createServer} = await import('node:http');
	const {filesRequest, MAX_FILES_RESPONSE_BYTES} = await import('../../source/core/providers/deepseek-files/files-http.js');
	const {fileListSchema} = await import('../../source/core/providers/deepseek-files/wire.js');
	let body = '';
	const server = createServer((_request, response) => {
		response.writeHead(200, {'content-type': 'application/json'});
		response.end(body);
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	t.after(() => new Promise(resolve => server.close(resolve)));
	const url = `http://127.0.0.1:${(server.address() as {port: number}).port}/files`;
	const list = async () => filesRequest({method: 'GET', url, headers: {authorization: 'Bearer sk-files-key'}, retry: 'never', what: 'deepseek files: list'}, fileListSchema);
	for (const [answer, pattern] of [
		['nope', /deepseek files: list.*the answer is not JSON/],
		['{"data":[{"id":"../x"}]}', /deepseek files: list.*unexpected answer at data\.0\.id/],
		['x'.repeat(MAX_FILES_RESPONSE_BYTES + 1), /deepseek files: list.*the answer is larger than the 8 MiB limit/],
	] as const) {
		body = answer;
		await assert.rejects(list(), (error: Error) => pattern.test(error.message) && !error.message.includes('sk-files-key'));
	}

	body = JSON.stringify({data: []});
	assert.deepEqual((await list()).data, []);
});
