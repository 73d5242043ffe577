// An extension's loop that never yields cannot hold i for good (issue 47;
// spec/extensions.md §1, §5): the built CLI against the mock provider. Once
// the watchdog has named the extension on stderr, a signal ends i at once;
// without one, i ends itself at the limit; either way `i -c` goes on from
// the last complete step. A hold that ends by itself lets i go on.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, writeExtensionFile, type CliRun, type Sandbox} from '../helpers/cli.js';
import {HOLD_LIMIT_MS} from '../../source/shared/extension-watchdog.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const NOTICE = /i: extension (\S+) has held i for \d+(\.\d)? s \(at .*\): Ctrl-C ends i now; i ends itself at 10 s\n/;

function sandboxWith(name: string, source: string): {sandbox: Sandbox; file: string} {
	const sandbox = makeSandbox();
	sandbox.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	return {sandbox, file: writeExtensionFile(sandbox, name, source)};
}

/** `i -p PROMPT` with the extension, sent `signal` once the watchdog named the extension (none: left to the limit). */
async function heldRun(sandbox: Sandbox, file: string, prompt: string, signal: NodeJS.Signals | null): Promise<CliRun> {
	return runCli(['-p', prompt, '--yolo', '--extension', file], {
		env: sandbox.env,
		cwd: sandbox.workspace,
		timeoutMs: HOLD_LIMIT_MS + 20_000,
		onSpawn(child, output) {
			if (!signal) return;
			const check = setInterval(() => {
				if (!NOTICE.test(output.stderr())) return;
				clearInterval(check);
				child.kill(signal);
			}, 20);
			child.on('close', () => clearInterval(check));
		},
	});
}

/** `i -c -p again` without the extension: the session goes on from its last complete step; the model is sent `history`. */
async function resumes(sandbox: Sandbox, history: string[]): Promise<void> {
	mock.enqueue({text: 'Going on.'});
	const before = mock.requests.length;
	const run = await runCli(['-c', '-p', 'again'], {env: sandbox.env, cwd: sandbox.workspace});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'Going on.\n');
	const sent = mock.requests[before]!.body.messages.filter((message: any) => message.role === 'user').map((message: any) => message.content);
	assert.deepEqual(sent, [...history, 'again']);
}

function assertHeldBy(run: CliRun, name: string, signal: NodeJS.Signals): void {
	assert.equal(run.signal, signal, run.stderr);
	assert.equal(NOTICE.exec(run.stderr)?.[1], name, run.stderr);
}

test('a loop in register: SIGINT ends i once the extension is named; the next run starts clean', async () => {
	const {sandbox, file} = sandboxWith('stuck-register.mjs', 'export default function register(api) { for (;;) {} }\n');
	const run = await heldRun(sandbox, file, 'hello', 'SIGINT');
	assertHeldBy(run, 'stuck-register', 'SIGINT');
	assert.match(run.stderr, /\(at register \(file:\/\/.*stuck-register\.mjs:1:\d+\)\)/);
	// No session was opened yet: -c starts one, and nothing is in the way.
	await resumes(sandbox, []);
});

test('a loop in an event handler: SIGINT ends i; i -c goes on from the prompt saved before it', async () => {
	// Context transforms each request before it is sent: the prompt is saved by then, and no request goes out.
	const {sandbox, file} = sandboxWith('stuck-handler.mjs', "export default api => api.registerEventHandler('Context', function onContext() { for (;;) {} });\n");
	const run = await heldRun(sandbox, file, 'first question', 'SIGINT');
	assertHeldBy(run, 'stuck-handler', 'SIGINT');
	assert.match(run.stderr, /\(at onContext \(file:\/\/.*stuck-handler\.mjs:1:\d+\)\)/);
	await resumes(sandbox, ['first question']);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	test(`a loop in a tool's execute: ${signal} ends i; i -c goes on from the prompt saved before it`, async () => {
		const {sandbox, file} = sandboxWith('stuck-tool.mjs', "export default api => api.registerTool({name: 'spin', description: 'Spins.', parameters: {type: 'object'}, execute() { for (;;) {} }});\n");
		mock.enqueue({toolCalls: [{id: 'spin-1', name: 'spin', arguments: '{}'}]});
		const run = await heldRun(sandbox, file, 'spin please', signal);
		assertHeldBy(run, 'stuck-tool', signal);
		assert.match(run.stderr, /\(at Object\.execute \(file:\/\/.*stuck-tool\.mjs:1:\d+\)\)/);
		await resumes(sandbox, ['spin please']);
	});
}

test(`without a signal i ends itself ${HOLD_LIMIT_MS / 1000} s into the hold, saying so; i -c goes on`, async () => {
	const {sandbox, file} = sandboxWith('stuck-tool.mjs', "export default api => api.registerTool({name: 'spin', description: 'Spins.', parameters: {type: 'object'}, execute() { for (;;) {} }});\n");
	mock.enqueue({toolCalls: [{id: 'spin-2', name: 'spin', arguments: '{}'}]});
	const run = await heldRun(sandbox, file, 'spin forever', null);
	assertHeldBy(run, 'stuck-tool', 'SIGTERM');
	assert.match(run.stderr, /i: extension stuck-tool held i for 1\d(\.\d)? s \(at Object\.execute \(.*\)\): i ends; the session keeps its last complete step \(i -c goes on from it\)\n$/);
	await resumes(sandbox, ['spin forever']);
});

test('a hold that ends by itself: the extension is named, then i goes on and answers; exit 0', async () => {
	const {sandbox, file} = sandboxWith('busy.mjs', "export default api => api.registerEventHandler('TurnStart', () => { const until = Date.now() + 3000; while (Date.now() < until) {} });\n");
	mock.enqueue({text: 'Answered after the wait.'});
	const run = await heldRun(sandbox, file, 'wait then answer', null);
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'Answered after the wait.\n');
	assert.equal(NOTICE.exec(run.stderr)?.[1], 'busy');
	assert.match(run.stderr, /i: warning: extension busy let go after \d+(\.\d)? s; i goes on\n/);
});
