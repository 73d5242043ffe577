// A models.json provider's headers are secrets like its key (issue 46
// point 8): through the built CLI against local servers, a 401, a 500
// that is retried and a stream cut by an error event, each quoting the
// header's value and the key, show neither on stdout, stderr, in --json
// events, in a request_retry hook frame or in any file i wrote; nor does a
// BeforeProviderHeaders handler see the header. Both routes: the built-in
// adapter (openai by catalogue) and the provider package (deepseek).
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {startGateServer, textChunk} from '../fixtures/gate-server.js';
import {jsonEvents, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

const lifecycle = fileURLToPath(new URL('../../../test/fixtures/workers/lifecycle.py', import.meta.url));
const HEADER = 'team-canary-7f3a9c2e';
const KEY = 'sk-openai-canary-51d0';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/** openai by catalogue, moved to the mock by the person's models.json with a secret header; a hook worker logs every frame. */
function sandbox(): Sandbox {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'models.json'), JSON.stringify({providers: {openai: {baseUrl: mock.baseUrl('openai'), headers: {'X-Team-Token': HEADER}}}}));
	writeFileSync(join(box.configDir, 'hooks.json'), JSON.stringify({hooks: [{events: ['*'], exec: ['python3', lifecycle, 'a']}]}));
	writeFileSync(join(box.configDir, 'config.json'), JSON.stringify({provider: 'openai', model: 'gpt-4.1', max_retries: 2, plugins: ['hooks.json']}));
	return box;
}

/** The hook frames the worker logged: each line it finished. */
function frames(box: Sandbox): Array<{event: string; data: any}> {
	const path = join(box.workspace, '.lifecycle.log');
	if (!existsSync(path)) return [];
	const lines = readFileSync(path, 'utf8').split('\n');
	lines.pop();
	return lines.map(line => JSON.parse(line));
}

/** Every file under `root`, with its text. */
function filesUnder(root: string): Array<{path: string; text: string}> {
	const found: Array<{path: string; text: string}> = [];
	for (const entry of readdirSync(root, {withFileTypes: true})) {
		const path = join(root, entry.name);
		if (entry.isDirectory()) found.push(...filesUnder(path));
		else if (entry.isFile() && statSync(path).size < 16 * 1024 * 1024) found.push({path, text: readFileSync(path, 'latin1')});
	}

	return found;
}

/** Neither secret in the run's output nor in a file i wrote (the models.json that holds the header aside). */
function assertHidden(run: {stdout: string; stderr: string}, box: Sandbox): void {
	for (const secret of [HEADER, KEY]) {
		assert.ok(!run.stdout.includes(secret), `stdout holds ${secret}:\n${run.stdout.slice(0, 2000)}`);
		assert.ok(!run.stderr.includes(secret), `stderr holds ${secret}:\n${run.stderr}`);
		for (const file of filesUnder(box.root)) if (file.path !== join(box.configDir, 'models.json')) assert.ok(!file.text.includes(secret), `${file.path} holds ${secret}`);
	}
}

async function run(box: Sandbox, json = true) {
	return runCli(['-p', 'hi', ...(json ? ['--json'] : []), '-C', box.workspace], {env: {...box.env, OPENAI_API_KEY: KEY}});
}

test('built-in adapter: a 401 quoting the header and the key shows both redacted; the header was sent', async () => {
	const box = sandbox();
	const before = mock.requests.length;
	mock.enqueue({status: 401, errorMessage: `bad team ${HEADER} for key ${KEY}`});
	const result = await run(box);
	assert.equal(result.code, 1, result.stderr);
	assert.equal(mock.requests[before]!.headers['x-team-token'], HEADER);
	const error = jsonEvents(result.stdout).find(event => event.type === 'error');
	assert.match(error?.message ?? '', /HTTP 401: bad team \[redacted\] for key \[redacted\]/);
	assertHidden(result, box);
	// Without --json the error goes to stderr.
	mock.enqueue({status: 401, errorMessage: `bad team ${HEADER} for key ${KEY}`});
	const plain = await run(box, false);
	assert.equal(plain.code, 1);
	assert.match(plain.stderr, /HTTP 401: bad team \[redacted\] for key \[redacted\]/);
	assertHidden(plain, box);
});

test('built-in adapter: a 500 retried twice: neither the retry events, the request_retry frames nor the final error show the header', async () => {
	const box = sandbox();
	const failure = {status: 500, errorMessage: `upstream rejected ${HEADER}`, headers: {'retry-after': '0'}};
	mock.enqueue(failure, failure, failure);
	const result = await run(box);
	assert.equal(result.code, 1, result.stderr);
	const retries = jsonEvents(result.stdout).filter(event => event.type === 'retry');
	assert.equal(retries.length, 2);
	for (const retry of retries) assert.match(retry.reason, /upstream rejected \[redacted\]/);
	const hooked = frames(box).filter(frame => frame.event === 'request_retry');
	assert.equal(hooked.length, 2, JSON.stringify(frames(box).map(frame => frame.event)));
	for (const frame of hooked) {
		assert.match(JSON.stringify(frame.data), /upstream rejected \[redacted\]/);
		assert.ok(!JSON.stringify(frame.data).includes(HEADER));
	}

	assertHidden(result, box);
});

test('built-in adapter: a stream cut by an error event quoting the header, after text was shown', async () => {
	const box = sandbox();
	const text = `data: ${JSON.stringify({choices: [{index: 0, delta: {content: 'partial '}, finish_reason: null}]})}\n\n`;
	mock.enqueue({raw: `${text}data: ${JSON.stringify({error: {message: `stream broke for ${HEADER}`}})}\n\n`});
	const result = await run(box);
	assert.equal(result.code, 1, result.stderr);
	const error = jsonEvents(result.stdout).find(event => event.type === 'error');
	assert.match(error?.message ?? '', /error in stream: stream broke for \[redacted\]/);
	assertHidden(result, box);
});

test('a BeforeProviderHeaders handler sees neither the key nor the models.json header, and cannot replace the header', async () => {
	const box = sandbox();
	const seen = join(box.root, 'seen-headers.json');
	const extension = join(box.root, 'headers-extension.mjs');
	writeFileSync(
		extension,
		`import {writeFileSync} from 'node:fs';
export default function (api) {
	api.registerEventHandler('BeforeProviderHeaders', event => {
		writeFileSync(${JSON.stringify(seen)}, JSON.stringify(event.headers));
		return {headers: {...event.headers, 'x-team-token': 'replaced', 'x-trace': 'kept'}};
	});
}
`,
	);
	const before = mock.requests.length;
	mock.enqueue({text: 'fine'});
	const result = await runCli(['-p', 'hi', '--extension', extension, '-C', box.workspace], {env: {...box.env, OPENAI_API_KEY: KEY}});
	assert.equal(result.code, 0, result.stderr);
	const shown = JSON.parse(readFileSync(seen, 'utf8'));
	assert.equal(shown['x-team-token'], undefined);
	assert.equal(shown.authorization, undefined);
	const sent = mock.requests[before]!.headers;
	assert.equal(sent['x-team-token'], HEADER);
	assert.equal(sent['x-trace'], 'kept');
});

test('provider package: an error event mid-stream quoting the header and the key shows both redacted', async () => {
	const server = await startGateServer();
	try {
		const box = makeSandbox();
		const dsKey = 'sk-deepseek-canary-93ab';
		writeFileSync(join(box.configDir, 'models.json'), JSON.stringify({providers: {deepseek: {baseUrl: server.baseUrl, headers: {'x-team-token': HEADER}}}}));
		server.enqueue({parts: [textChunk('partial '), `data: ${JSON.stringify({error: {message: `stream broke for ${HEADER} and ${dsKey}`}})}\n\n`]});
		const result = await runCli(['-p', 'hi', '--json', '--model', 'deepseek/deepseek-chat', '-C', box.workspace], {env: {...box.env, DEEPSEEK_API_KEY: dsKey}});
		assert.equal(result.code, 1, result.stderr);
		assert.equal(server.requests[0]!.headers['x-team-token'], HEADER);
		const error = jsonEvents(result.stdout).find(event => event.type === 'error');
		assert.match(error?.message ?? '', /stream broke for \[redacted\] and \[redacted\]/);
		for (const secret of [HEADER, dsKey]) assert.ok(!(result.stdout + result.stderr).includes(secret), `the output holds ${secret}`);
	} finally {
		await server.close();
	}
});
