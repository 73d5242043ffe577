// An extension's code failing where no call of the host can catch it (a
// timer, an event listener) never ends the run (spec/extensions.md §1;
// issue 47): the built CLI against the mock provider, in -p, --json and
// line mode; an exception whose stack names no extension still ends i as
// node would. And every extension tool has a deadline (§4).
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {jsonEvents, makeSandbox, runCli, writeExtensionFile, type Sandbox} from '../helpers/cli.js';
import {MAX_FAULT_REPORTS} from '../../source/shared/contain-extensions.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/** A tool that arms a timer which throws, and answers after it went off. */
const timerExtension = `export default function register(api) {
	api.registerTool({name: 'arm', description: 'Arms a timer.', parameters: {type: 'object'}, execute() {
		return new Promise(resolve => {
			setTimeout(function goOff() {
				setImmediate(() => resolve({output: 'armed'}));
				throw new Error('the timer went off');
			}, 5);
		});
	}});
}
`;

function sandboxWith(name: string, source: string): {sandbox: Sandbox; file: string} {
	const sandbox = makeSandbox();
	sandbox.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	return {sandbox, file: writeExtensionFile(sandbox, name, source)};
}

const callThen = (id: string, name: string, answer: string) => [{toolCalls: [{id, name, arguments: '{}'}]}, {text: answer}];

test('-p: a timer of an extension tool throws; the answer is printed and saved, exit 0, the extension named on stderr', async () => {
	const {sandbox, file} = sandboxWith('timer.mjs', timerExtension);
	mock.enqueue(...callThen('t1', 'arm', 'Armed and done.'));
	const run = await runCli(['-p', 'arm it', '--yolo', '--extension', file, '--session', 'faults.json'], {env: sandbox.env, cwd: sandbox.workspace});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'Armed and done.\n');
	assert.match(
		run.stderr,
		new RegExp(
			`i: warning: extension timer: an uncaught exception in a timer callback: the timer went off \\(at Timeout\\.goOff \\[as _onTimeout\\] \\(file://${file}:6:11\\)\\); i goes on, and timer stays loaded\\n`,
		),
	);
	const saved = readFileSync(join(sandbox.workspace, 'faults.json'), 'utf8');
	assert.ok(saved.includes('Armed and done.'), 'the answer is saved');
	assert.ok(saved.includes('"armed"'), 'with the tool result');
});

test('--json: the fault is a warning event naming the extension; the turn ends well', async () => {
	const {sandbox, file} = sandboxWith('timer.mjs', timerExtension);
	mock.enqueue(...callThen('t2', 'arm', 'Still here.'));
	const run = await runCli(['-p', 'arm it', '--json', '--yolo', '--extension', file], {env: sandbox.env, cwd: sandbox.workspace});
	assert.equal(run.code, 0, run.stderr);
	const events = jsonEvents(run.stdout);
	const warning = events.find(event => event.type === 'warning');
	assert.match(warning?.message, /^extension timer: an uncaught exception in a timer callback: the timer went off \(at /);
	assert.deepEqual(
		events.filter(event => event.type === 'done').map(event => event.reason),
		['stop'],
	);
	assert.equal(events.find(event => event.type === 'tool_result')?.output, 'armed');
});

test('line mode: a listener the extension added throws on every turn; each line is answered', async () => {
	const {sandbox, file} = sandboxWith(
		'listener.mjs',
		`import {EventEmitter} from 'node:events';
		const bus = new EventEmitter();
		bus.on('ping', function onPing() { throw new Error('the listener failed'); });
		export default function register(api) {
			api.registerTool({name: 'ping', description: 'Pings.', parameters: {type: 'object'}, execute() {
				setTimeout(() => bus.emit('ping'), 1);
				return new Promise(resolve => setTimeout(() => resolve({output: 'pinged'}), 50));
			}});
		}
`,
	);
	mock.enqueue(...callThen('l1', 'ping', 'First.'), ...callThen('l2', 'ping', 'Second.'));
	const run = await runCli(['--yolo', '--extension', file], {env: sandbox.env, cwd: sandbox.workspace, input: 'one\ntwo\n'});
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stdout, /First\.[\s\S]*Second\./);
	const faults = run.stderr.match(/i: warning: extension listener: an uncaught exception in an event listener: the listener failed \(at (EventEmitter\.)?onPing /g);
	assert.equal(faults?.length, 2, run.stderr);
});

test(`faults past ${MAX_FAULT_REPORTS} of one extension are counted, not shown`, async () => {
	const {sandbox, file} = sandboxWith(
		'ticker.mjs',
		`export default function register(api) {
			api.registerTool({name: 'tick', description: 'Ticks.', parameters: {type: 'object'}, execute() {
				return new Promise(resolve => {
					let count = 0;
					const timer = setInterval(() => {
						count += 1;
						if (count === ${MAX_FAULT_REPORTS + 2}) {
							clearInterval(timer);
							setImmediate(() => resolve({output: 'ticked'}));
						}
						throw new Error('tick ' + count);
					}, 1);
				});
			}});
		}
`,
	);
	mock.enqueue(...callThen('k1', 'tick', 'Ticked.'));
	const run = await runCli(['-p', 'tick', '--yolo', '--extension', file], {env: sandbox.env, cwd: sandbox.workspace});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'Ticked.\n');
	const shown = [...run.stderr.matchAll(/an uncaught exception in a timer callback: tick (\d+)/g)].map(match => Number(match[1]));
	assert.deepEqual(
		shown,
		Array.from({length: MAX_FAULT_REPORTS}, (_value, index) => index + 1),
	);
	assert.match(run.stderr, new RegExp(`extension ticker: that is ${MAX_FAULT_REPORTS} faults; its later ones are not reported`));
});

test('an exception whose stack names no extension is not contained: i ends with it, as node would', async () => {
	const {sandbox, file} = sandboxWith(
		'disguised.mjs',
		`export default function register(api) {
			api.registerTool({name: 'hide', description: 'Throws with a stack of elsewhere.', parameters: {type: 'object'}, execute() {
				const error = new Error('a fault of i itself');
				error.stack = 'Error: a fault of i itself\\n    at somewhereInI (/elsewhere/i.js:1:1)';
				setTimeout(() => { throw error; }, 1);
				return new Promise(() => {});
			}});
		}
`,
	);
	// Nothing follows the call: i ends before it could ask again.
	mock.enqueue({toolCalls: [{id: 'h1', name: 'hide', arguments: '{}'}]});
	const run = await runCli(['-p', 'hide', '--yolo', '--extension', file], {env: sandbox.env, cwd: sandbox.workspace});
	assert.equal(run.code, 1);
	assert.match(run.stderr, /Error: a fault of i itself\n {4}at somewhereInI \(\/elsewhere\/i\.js:1:1\)/);
	assert.doesNotMatch(run.stderr, /i: warning/);
});

test('a tool past the deadline it declared: its signal is aborted, the call ends in a tool error naming the tool, the extension and the deadline', async () => {
	const {sandbox, file} = sandboxWith(
		'slow.mjs',
		`import {writeFileSync} from 'node:fs';
		export default function register(api) {
			api.registerTool({name: 'slow', description: 'Never answers.', parameters: {type: 'object'}, timeoutSeconds: 1, execute(params, ctx) {
				ctx.signal.addEventListener('abort', () => writeFileSync(params.__i.cwd + '/aborted', ctx.signal.reason.name));
				return new Promise(() => {});
			}});
		}
`,
	);
	mock.enqueue(...callThen('s1', 'slow', 'It timed out.'));
	const before = mock.requests.length;
	const run = await runCli(['-p', 'be slow', '--yolo', '--extension', file], {env: sandbox.env, cwd: sandbox.workspace});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'It timed out.\n');
	const deadline = 'tool "slow" of extension slow did not finish within its deadline of 1 s, so its signal was aborted and the call ended (a tool may declare timeoutSeconds up to 3600)';
	assert.match(run.stderr, new RegExp(`i: slow failed: ${deadline.replaceAll(/[().]/g, '\\$&')}`));
	const sent = mock.requests[before + 1]!.body.messages.find((message: any) => message.role === 'tool');
	assert.equal(sent.content, `Error: ${deadline}`);
	assert.ok(existsSync(join(sandbox.workspace, 'aborted')));
	assert.equal(readFileSync(join(sandbox.workspace, 'aborted'), 'utf8'), 'TimeoutError');
});

test('i extensions: a timer register started throws while the listing loads; the listing is whole and the fault a warning', async () => {
	const {sandbox, file} = sandboxWith(
		'noisy.mjs',
		`export default async function register(api) {
			setTimeout(function early() { throw new Error('thrown while listed'); }, 1);
			await new Promise(resolve => setTimeout(resolve, 50));
			api.registerTool({name: 'noisy', description: 'Lists.', parameters: {type: 'object'}, execute: () => ({output: ''})});
		}
`,
	);
	const run = await runCli(['extensions', '--json', '--extension', file], {env: sandbox.env, cwd: sandbox.workspace});
	assert.equal(run.code, 0, run.stderr);
	assert.deepEqual(
		JSON.parse(run.stdout)
			.loaded.filter((extension: {name: string}) => extension.name === 'noisy')
			.map((extension: {tools: string[]}) => extension.tools),
		[['noisy']],
	);
	assert.match(run.stderr, /i: warning: extension noisy: an uncaught exception in a timer callback: thrown while listed \(at Timeout\.early /);
});
