// Extension providers in the chat screen, in a real pseudo-terminal: the
// first delta is on screen while the server still holds the rest (a gate),
// /reload puts the new generation's provider in place (and keeps the old one
// when the new one lacks it), and runtime.getExecutionContext() follows the
// live agent: the reloaded tools, /clear's new session.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {done, finishChunk, gate, startGateServer, textChunk, type GateServer} from '../fixtures/gate-server.js';
import {makeSandbox} from '../helpers/cli.js';
import {runInTerminal} from '../helpers/pty.js';

const example = fileURLToPath(new URL('../../../examples/extension-provider', import.meta.url));

/** The turn is over: the status line no longer says how to stop it. */
const idle = (screen: string) => screen.includes('answer') && !screen.split('\n').some(row => row.endsWith('Esc to stop'));

let server: GateServer;
before(async () => {
	server = await startGateServer();
});
after(async () => server.close());

test('the chat screen shows the first delta while the server holds the rest, then the whole answer', async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'local-openai', model: 'local-model'});
	const rest = gate();
	server.enqueue({parts: [textChunk('Streaming '), rest.promise, textChunk('finished'), finishChunk(), done]});
	const run = runInTerminal(['-C', box.workspace, '--extension', example], {env: {...box.env, LOCAL_OPENAI_BASE_URL: server.baseUrl}, cwd: box.workspace});
	try {
		await run.ready();
		run.type('hello\r');
		await run.waitFor(screen => screen.includes('Streaming'), 'the first delta on screen');
		assert.ok(!run.screen().join('\n').includes('finished'));
		rest.open();
		await run.waitFor(screen => screen.includes('Streaming finished'), 'the whole answer');
	} finally {
		await run.close();
	}
});

test('/reload replaces the provider with the new generation’s, or keeps the old one when the new one lacks it; the execution context reads the live tools and session', async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'versioned', model: 'vm', api_key_env: 'TEST_API_KEY', extra_body: {reasoning_effort: 'low'}});
	const file = join(box.root, 'versioned.mjs');
	const version = (name: string, {provider = true, tool = false} = {}) => `
		export default function register(api) {
			${provider ? `api.registerStreamingProvider({id: 'versioned', apiStyle: 'test', request: (req, {emit}) => { emit({type: 'text_delta', contentIndex: 0, delta: 'answer ${name}'}); return {role: 'assistant', content: 'answer ${name}'}; }});` : ''}
			${tool ? `api.registerTool({name: 'extra_tool', description: 'x', parameters: {type: 'object'}, execute: () => ({output: ''})});` : ''}
			api.registerCommand('ctx', {description: 'the execution context', handler: () => {
				const c = api.runtime.getExecutionContext();
				return {lines: ['model ' + c.model.provider + '/' + c.model.id + ' thinking ' + c.thinking, 'extra tool ' + c.tools.includes('extra_tool') + ', read tool ' + c.tools.includes('read'), 'session ' + c.sessionId]};
			}});
		}
	`;
	writeFileSync(file, version('one'));
	const run = runInTerminal(['-C', box.workspace, '--extension', file], {env: box.env, cwd: box.workspace});
	try {
		await run.ready();
		run.type('first\r');
		await run.waitFor(screen => screen.includes('answer one') && idle(screen), 'the first generation’s answer');
		run.type('/ctx\r');
		await run.waitFor(screen => screen.includes('model versioned/vm thinking low') && screen.includes('extra tool false, read tool true'), 'the first context');
		const firstSession = /session ([0-9a-f-]{36})/.exec(run.screen().join('\n'))![1]!;
		writeFileSync(file, version('two', {tool: true}));
		run.type('/reload\r');
		await run.waitFor(screen => screen.includes('reloaded 2 extensions'), 'the reload');
		run.type('second\r');
		await run.waitFor(screen => screen.includes('answer two') && idle(screen), 'the second generation’s answer');
		run.type('/clear\r');
		await run.waitFor(screen => screen.includes('new session'), 'the new session');
		run.type('/ctx\r');
		await run.waitFor(screen => screen.includes('extra tool true, read tool true'), 'the reloaded tools');
		const sessions = [
			...run
				.screen()
				.join('\n')
				.matchAll(/session ([0-9a-f-]{36})/g),
		].map(match => match[1]);
		assert.notEqual(sessions.at(-1), firstSession, 'the context names /clear’s new session');
		writeFileSync(file, version('three', {provider: false}));
		run.type('/reload\r');
		await run.waitFor(screen => screen.includes('the reload failed') && screen.includes('neither'), 'the refused reload');
		const shown = run.screen().join('\n').split('answer two').length;
		run.type('third\r');
		await run.waitFor(screen => screen.split('answer two').length > shown, 'the second generation still answering');
	} finally {
		await run.close();
	}
});

test('Esc while a provider that never polls streams: the turn ends at once, the partial text stays on screen, the late answer never shows', async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'deaf', model: 'dm'});
	const file = join(box.root, 'deaf.mjs');
	writeFileSync(
		file,
		`export default function register(api) {
			api.registerStreamingProvider({id: 'deaf', apiStyle: 'test', request: (req, {emit}) => new Promise(resolve => {
				emit({type: 'text_delta', contentIndex: 0, delta: 'Partial words'});
				setTimeout(() => resolve({role: 'assistant', content: 'Partial words and a late ending'}), 5000);
			})});
		}`,
	);
	const run = runInTerminal(['-C', box.workspace, '--extension', file], {env: box.env, cwd: box.workspace});
	try {
		await run.ready();
		run.type('go\r');
		await run.waitFor(screen => screen.includes('Partial words'), 'the partial text');
		const pressed = Date.now();
		run.type('\u001B');
		await run.waitFor(screen => screen.includes('interrupted; the session keeps its last complete step'), 'the interrupt notice');
		assert.ok(Date.now() - pressed < 5000, 'the turn did not wait for the provider');
		assert.ok(run.screen().join('\n').includes('Partial words'));
		await new Promise(resolve => setTimeout(resolve, 5500));
		assert.ok(!run.screen().join('\n').includes('late ending'), 'the late success is ignored');
	} finally {
		await run.close();
	}
});
