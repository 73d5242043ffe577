// An extension's slash commands and Markdown transformer in the chat screen
// (spec/extensions.md §5; issue 14 item 6), in a real
// pseudo-terminal against the mock provider.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {TYPEAHEAD_GUARD_MS} from '../../components/Approval.js';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli} from '../helpers/cli.js';
import {startChat} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const extension = `
	const items = [];
	export default function register(api) {
		api.registerCommand('todo', {
			description: 'keep a list: /todo add TEXT, /todo',
			handler(args, ctx) {
				if (args.startsWith('add ')) { items.push(args.slice(4)); ctx.notify('saving'); return 'added ' + args.slice(4) + ' in ' + ctx.cwd.split('/').pop(); }
				return {lines: items.map((item, index) => (index + 1) + '. ' + item)};
			},
		});
		api.registerCommand('boom', {description: 'fails', handler() { throw new Error('it broke'); }});
		api.registerCommand('wait', {description: 'never answers', handler: () => new Promise(() => {})});
		api.registerCommand('leak', {description: 'drops a promise', handler() { Promise.reject(new Error('a lost promise')); return 'leaked'; }});
		api.registerMarkdownTransformer(({text}) => ({text: text.replace(/\\*\\*(.+?)\\*\\*/g, (_, inner) => inner.toUpperCase())}));
	}
`;

function withExtension() {
	const box = makeSandbox();
	const file = join(box.root, 'todo.mjs');
	writeFileSync(file, extension);
	return {box, args: ['--extension', file]};
}

test('an extension command completes with Tab, is listed by /help with its extension, runs with its words, shows notify lines and its answer, and never reaches the model', async () => {
	const {box, args} = withExtension();
	const {run} = await startChat(mock, {box, args});
	try {
		const requests = mock.requests.length;
		run.type('/to');
		await run.waitFor(screen => screen.includes('keep a list: /todo add TEXT'), 'the completion list with the command');
		run.type('\t');
		await run.waitFor(screen => screen.split('\n').includes('› /todo'), 'the completed command');
		run.type(' add milk\r');
		await run.waitFor(screen => screen.includes('/todo (extension todo): saving') && screen.includes(`added milk in ${box.workspace.split('/').pop()}`), 'the notify line and the answer');
		run.type('/todo\r');
		await run.waitFor(screen => screen.includes('1. milk'), 'the lines answer');
		run.type('/help\r');
		await run.waitFor(screen => /\/todo\s+keep a list: \/todo add TEXT, \/todo \(extension todo\)/.test(screen), 'the help with the command');
		run.type('/boom\r');
		await run.waitFor(screen => screen.includes('/boom (extension todo) failed: it broke'), 'the failure');
		run.type('/wait\r');
		await run.waitFor(screen => screen.includes('working — Esc to stop'), 'the running command');
		run.type('\u001B');
		await run.waitFor(screen => screen.includes('/wait (extension todo) stopped'), 'the stopped command');
		run.type('/leak\r');
		await run.waitFor(screen => screen.includes('extension todo: an unhandled rejection: a lost promise'), 'the unhandled rejection as a notice, the screen still up');
		assert.equal(mock.requests.length, requests, 'no command went to the model');
	} finally {
		await run.close();
	}
});

test('the Markdown transformer changes what the chat screen shows; -p prints the model text as it came', async () => {
	const {box, args} = withExtension();
	const {run} = await startChat(mock, {box, args});
	try {
		mock.enqueue({text: 'This is **important** news.'});
		run.type('tell me\r');
		await run.waitFor(screen => screen.includes('This is IMPORTANT news.'), 'the transformed answer');
	} finally {
		await run.close();
	}

	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	mock.enqueue({text: 'This is **important** news.'});
	const printed = await runCli(['-p', 'tell me', '-C', box.workspace, ...args], {env: box.env});
	assert.equal(printed.code, 0, printed.stderr);
	assert.equal(printed.stdout, 'This is **important** news.\n');
});

test('/reload loads the changed extension file (SessionShutdown and SessionStart with reason reload); a reload that fails keeps the previous generation', async () => {
	const box = makeSandbox();
	const file = join(box.root, 'versioned.mjs');
	const log = join(box.root, 'reload.log');
	const version = (name: string, extra = '') => `
		import {appendFileSync} from 'node:fs';
		export default function register(api) {
			${extra}
			api.registerCommand('ver', {description: 'which version', handler: () => 'version ${name}'});
			for (const tag of ['SessionStart', 'SessionShutdown']) api.registerEventHandler(tag, event => appendFileSync(${JSON.stringify(log)}, '${name} ' + tag + ' ' + event.reason + '\\n'));
		}
	`;
	writeFileSync(file, version('one'));
	const {run} = await startChat(mock, {box, args: ['--extension', file]});
	try {
		run.type('/ver\r');
		await run.waitFor(screen => screen.includes('version one'), 'the first version');
		writeFileSync(file, version('two'));
		run.type('/reload\r');
		await run.waitFor(screen => screen.includes('reloaded 2 extensions'), 'the reload');
		run.type('/ver\r');
		await run.waitFor(screen => screen.includes('version two'), 'the second version');
		writeFileSync(file, version('three', "throw new Error('broken on purpose');"));
		run.type('/reload\r');
		await run.waitFor(screen => screen.includes('the reload failed; the extensions loaded before stay') && screen.includes('register failed: broken'), 'the failed reload');
		run.type('/ver\r');
		await run.waitFor(screen => screen.split('version two').length > 2, 'the second version still answering');
	} finally {
		await run.close();
	}

	const lines = readFileSync(log, 'utf8').trim().split('\n');
	assert.deepEqual(lines.slice(0, 3), ['one SessionStart startup', 'one SessionShutdown reload', 'two SessionStart reload']);
	assert.ok(!lines.some(line => line.startsWith('three')), 'nothing of the failed generation ran');
});

test("after /reload the new generation hears i's questions (UiPromptStart/End): the screen reads the agent's handlers as they are now, not as they were at the start", async () => {
	const box = makeSandbox();
	const file = join(box.root, 'asking.mjs');
	const log = join(box.root, 'prompts.log');
	writeFileSync(log, '');
	const version = (name: string) => `
		import {appendFileSync} from 'node:fs';
		export default function register(api) {
			for (const tag of ['UiPromptStart', 'UiPromptEnd']) api.registerEventHandler(tag, () => appendFileSync(${JSON.stringify(log)}, '${name} ' + tag + '\\n'));
			api.registerCommand('ask', {description: 'asks', async handler(args, ctx) { const answer = await api.runtime.uiDialog({type: 'confirm', title: 'Sure ${name}?'}, ctx); return 'answered ' + JSON.stringify(answer); }});
		}
	`;
	const ask = async (run: Awaited<ReturnType<typeof startChat>>['run'], name: string) => {
		run.type('/ask\r');
		await run.waitFor(screen => screen.includes(`Sure ${name}?`), `the ${name} question`);
		// Keys typed at once are taken for typeahead and ignored.
		await sleep(TYPEAHEAD_GUARD_MS + 150);
		run.type('y');
		await run.waitFor(screen => screen.split('answered').length > (name === 'one' ? 1 : 2), `the ${name} answer`, {whole: true});
	};
	writeFileSync(file, version('one'));
	const {run} = await startChat(mock, {box, args: ['--extension', file]});
	try {
		await ask(run, 'one');
		writeFileSync(file, version('two'));
		run.type('/reload\r');
		await run.waitFor(screen => screen.includes('reloaded 2 extensions'), 'the reload');
		await ask(run, 'two');
	} finally {
		await run.close();
	}

	assert.deepEqual(readFileSync(log, 'utf8').trim().split('\n'), ['one UiPromptStart', 'one UiPromptEnd', 'two UiPromptStart', 'two UiPromptEnd']);
});
