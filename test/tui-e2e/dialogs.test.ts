// api.runtime.uiDialog through a real `i` (issue 15 item 7): an extension's
// command and its tool open dialogs on the chat screen in a pseudo-terminal,
// UiPromptStart/End wrap them in order with i's own approval, and the heads
// without a screen refuse them with a clear error.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {TYPEAHEAD_GUARD_MS} from '../../components/Approval.js';
import {makeSandbox, runCli} from '../helpers/cli.js';
import {importRecorder, textInputChunk} from '../helpers/import-log.js';
import type {TerminalRun} from '../helpers/pty.js';
import {startChat, toolResults} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const source = (log: string) => `
	import {appendFileSync} from 'node:fs';
	const log = ${JSON.stringify(log)};
	export default function register(api) {
		for (const tag of ['UiPromptStart', 'UiPromptEnd']) api.registerEventHandler(tag, event => appendFileSync(log, tag + ' ' + JSON.stringify(event) + '\\n'));
		// Asked at the start of each run only where the test says (an open dialog waits for an answer, and a handler has 10 s).
		if (process.env.DIALOG_AT_START) api.registerEventHandler('AgentStart', async () => {
			try { await api.runtime.uiDialog({type: 'confirm', title: 'At the start?'}); } catch (error) { appendFileSync(log, 'AgentStart ' + error.code + ' ' + error.message + '\\n'); throw error; }
		});
		api.registerCommand('pick', {
			description: 'pick a colour',
			async handler(args, ctx) {
				const answer = await api.runtime.uiDialog({type: 'select', title: 'Which colour?', options: [{value: 'r', label: 'red', description: 'warm'}, 'green', 'blue']}, ctx);
				return 'picked ' + JSON.stringify(answer);
			},
		});
		api.registerCommand('name', {
			description: 'ask a name',
			async handler(args, ctx) {
				const answer = await api.runtime.uiDialog({type: 'input', title: 'Your name?', placeholder: 'first name', secret: args === 'secret'}, ctx);
				return 'named ' + JSON.stringify(answer);
			},
		});
		api.registerTool({
			name: 'ask_confirm',
			description: 'asks the person to confirm the plan',
			parameters: {type: 'object', properties: {}},
			async execute(params, ctx) {
				const answer = await api.runtime.uiDialog({type: 'confirm', title: 'Proceed with the plan?', message: 'Three files change.'}, ctx);
				return {output: 'answer ' + JSON.stringify(answer)};
			},
		});
	}
`;

function withExtension() {
	const box = makeSandbox();
	const file = join(box.root, 'dialogs.mjs');
	const log = join(box.root, 'prompts.log');
	writeFileSync(log, '');
	writeFileSync(file, source(log));
	return {box, args: ['--extension', file], log, events: () => readFileSync(log, 'utf8').trim().split('\n').filter(Boolean)};
}

/** Waits for a dialog, then until keys typed now are no longer taken for typeahead. */
async function waitForDialog(run: TerminalRun, title: string): Promise<void> {
	await run.waitFor(screen => screen.includes(`${title} — asked by extension dialogs`), `the dialog ${title}`);
	await sleep(TYPEAHEAD_GUARD_MS + 150);
}

test("an extension command's select and input dialogs are answered on the chat screen, Esc cancels, and UiPromptStart/End wrap each", async () => {
	const {box, args, events} = withExtension();
	// Which modules the built i loads: ink-text-input only once an input dialog opens.
	const imports = join(box.root, 'imports.log');
	const textInputLoaded = () =>
		readFileSync(imports, 'utf8')
			.split('\n')
			.some(url => textInputChunk.test(url));
	const {run} = await startChat(mock, {box, args, env: {NODE_OPTIONS: `--import=${importRecorder}`, I_TEST_IMPORT_LOG: imports}});
	try {
		assert.ok(readFileSync(imports, 'utf8').includes('/bundle/cli.js'), 'the recorder saw the bundle');
		assert.equal(textInputLoaded(), false, 'the first frame does not wait for ink-text-input');
		run.type('/pick\r');
		await waitForDialog(run, 'Which colour?');
		assert.ok(
			run.screen().some(row => row.includes('❯ red warm')),
			run.screen().join('\n'),
		);
		run.type('j');
		await run.waitFor(screen => screen.includes('❯ green'), 'the second option highlighted');
		run.type('\r');
		await run.waitFor(screen => screen.includes('picked {"value":"green"}'), 'the answer');
		assert.ok(!run.screen().some(row => row.includes('asked by extension')), 'the dialog is gone');

		assert.equal(textInputLoaded(), false, 'a select needs no text input');
		run.type('/name\r');
		await waitForDialog(run, 'Your name?');
		assert.equal(textInputLoaded(), true, 'the first input dialog loaded it');
		run.type('Ada');
		await run.waitFor(screen => screen.includes('› Ada'), 'the typing');
		run.type('\r');
		await run.waitFor(screen => screen.includes('named {"value":"Ada"}'), 'the typed answer');

		run.type('/name secret\r');
		await waitForDialog(run, 'Your name?');
		run.type('hunter2');
		await run.waitFor(screen => screen.includes('› *******'), 'the masked typing');
		assert.ok(!run.screen().some(row => row.includes('hunter2')), 'the secret is never on the screen while typed');
		run.type('\r');
		await run.waitFor(screen => screen.includes('named {"value":"hunter2"}'), 'the secret answer, shown by the command itself');

		run.type('/pick\r');
		await waitForDialog(run, 'Which colour?');
		run.type('\u001B');
		await run.waitFor(screen => screen.includes('picked {"cancelled":true}'), 'Esc cancels');
		// The editor has the keyboard again.
		run.type('/name\r');
		await waitForDialog(run, 'Your name?');
		run.type('\u001B');
		await run.waitFor(screen => screen.split('named {"cancelled":true}').length > 1, 'the second cancel');
	} finally {
		await run.close();
	}

	const lines = events();
	const parsed = lines.map(line => [line.split(' ')[0], JSON.parse(line.slice(line.indexOf(' ') + 1))]);
	assert.deepEqual(
		parsed.map(([tag, event]) => [tag, event.id, event.kind, event.dialog ?? event.answer]),
		[
			['UiPromptStart', 'dialog-1', 'dialog', 'select'],
			['UiPromptEnd', 'dialog-1', 'dialog', 'chosen'],
			['UiPromptStart', 'dialog-2', 'dialog', 'input'],
			['UiPromptEnd', 'dialog-2', 'dialog', 'entered'],
			['UiPromptStart', 'dialog-3', 'dialog', 'input'],
			['UiPromptEnd', 'dialog-3', 'dialog', 'entered'],
			['UiPromptStart', 'dialog-4', 'dialog', 'select'],
			['UiPromptEnd', 'dialog-4', 'dialog', 'cancelled'],
			['UiPromptStart', 'dialog-5', 'dialog', 'input'],
			['UiPromptEnd', 'dialog-5', 'dialog', 'cancelled'],
		],
		lines.join('\n'),
	);
	assert.deepEqual(parsed[0]![1], {id: 'dialog-1', kind: 'dialog', dialog: 'select', extension: 'dialogs', title: 'Which colour?'});
	assert.deepEqual(parsed[1]![1], {id: 'dialog-1', kind: 'dialog', answer: 'chosen', value: 'green'});
	assert.deepEqual(parsed[3]![1], {id: 'dialog-2', kind: 'dialog', answer: 'entered', value: 'Ada'});
	assert.deepEqual(parsed[5]![1], {id: 'dialog-3', kind: 'dialog', answer: 'entered'}, 'the secret is not in UiPromptEnd');
	assert.doesNotMatch(lines.join('\n'), /hunter2/);
});

test("an extension tool's dialog waits for the tool's approval, answers the tool, and Ctrl-C on it closes it as leaving and stops the turn", async () => {
	const {box, args, events} = withExtension();
	const {run} = await startChat(mock, {box, args});
	try {
		const sent = mock.requests.length;
		mock.enqueue({toolCalls: [{id: 'call_ask', name: 'ask_confirm', arguments: '{}'}]}, {text: 'Going ahead.'});
		run.type('make the plan\r');
		await run.waitFor(screen => screen.includes('Allow?') && screen.includes('[y] allow once'), 'the approval of the tool');
		await sleep(TYPEAHEAD_GUARD_MS + 150);
		run.type('y');
		await waitForDialog(run, 'Proceed with the plan?');
		assert.ok(run.screen().some(row => row.includes('Three files change.')));
		assert.ok(run.screen().some(row => row.includes('[y] yes [n] no')));
		run.type('y');
		await run.waitFor(screen => screen.includes('Going ahead.'), 'the model after the tool');
		assert.equal(toolResults(mock.requests[sent + 1]!.body).get('call_ask'), 'answer {"confirmed":true}');

		// Only the tool call: the interrupted turn sends nothing after it.
		mock.enqueue({toolCalls: [{id: 'call_ask2', name: 'ask_confirm', arguments: '{}'}]});
		const before = mock.requests.length;
		run.type('once more\r');
		await run.waitFor(screen => screen.includes('Allow?') && screen.includes('[y] allow once'), 'the second approval');
		await sleep(TYPEAHEAD_GUARD_MS + 150);
		run.type('y');
		await waitForDialog(run, 'Proceed with the plan?');
		run.type('\u0003');
		await run.waitFor(screen => !screen.includes('asked by extension') && !screen.includes('working — Esc to stop'), 'the dialog gone and the turn stopped');
		assert.equal(mock.requests.length, before + 1, 'the cancelled call went back to no model');
	} finally {
		await run.close();
	}

	const lines = events().filter(line => line.startsWith('UiPrompt'));
	const parsed = lines.map(line => [line.split(' ')[0], JSON.parse(line.slice(line.indexOf(' ') + 1))]);
	assert.deepEqual(
		parsed.map(([tag, event]) => [tag, event.kind, event.answer ?? null, event.reason ?? null]),
		[
			['UiPromptStart', 'approval', null, null],
			['UiPromptEnd', 'approval', 'once', null],
			['UiPromptStart', 'dialog', null, null],
			['UiPromptEnd', 'dialog', 'yes', null],
			['UiPromptStart', 'approval', null, null],
			['UiPromptEnd', 'approval', 'once', null],
			['UiPromptStart', 'dialog', null, null],
			['UiPromptEnd', 'dialog', 'cancelled', 'exit'],
		],
		lines.join('\n'),
	);
	assert.equal(parsed[2]![1].extension, 'dialogs');
	assert.equal(parsed[2]![1].title, 'Proceed with the plan?');
});

test('-p and line mode have no screen: the dialog is refused as unavailable, the tool error says why, an event handler fails on stderr, and nobody is answered for', async () => {
	const {box, args, events} = withExtension();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	const sent = mock.requests.length;
	mock.enqueue({toolCalls: [{id: 'call_ask', name: 'ask_confirm', arguments: '{}'}]}, {text: 'done'});
	const env = {...box.env, DIALOG_AT_START: '1'};
	const printed = await runCli(['-p', 'make the plan', '--yolo', '-C', box.workspace, ...args], {env});
	assert.equal(printed.code, 0, printed.stderr);
	assert.equal(mock.requests.length, sent + 2, printed.stderr);
	const result = toolResults(mock.requests[sent + 1]!.body).get('call_ask') ?? '';
	assert.match(result, /uiDialog: extension dialogs: i -p has no screen to ask on, so the confirm dialog "Proceed with the plan\?" was not shown and nobody answered it/);
	assert.doesNotMatch(result, /answer \{/);
	assert.match(printed.stderr, /extension dialogs.*AgentStart.*uiDialog: extension dialogs: i -p has no screen to ask on/s);
	assert.ok(
		events().includes('AgentStart unavailable uiDialog: extension dialogs: i -p has no screen to ask on, so the confirm dialog "At the start?" was not shown and nobody answered it'),
		events().join('\n'),
	);
	assert.ok(!events().some(line => line.startsWith('UiPrompt')), 'no prompt event: nothing was shown');

	mock.enqueue({toolCalls: [{id: 'call_json', name: 'ask_confirm', arguments: '{}'}]}, {text: 'done'});
	const json = await runCli(['-p', 'make the plan', '--yolo', '--json', '-C', box.workspace, ...args], {env});
	assert.equal(json.code, 0, json.stderr);
	assert.match(json.stdout, /i -p --json has no screen to ask on/);

	// Line mode (prompts on a pipe) reads prompts, not answers.
	mock.enqueue({toolCalls: [{id: 'call_line', name: 'ask_confirm', arguments: '{}'}]}, {text: 'done'});
	const before = mock.requests.length;
	const lines = await runCli(['--yolo', '-C', box.workspace, ...args], {env: box.env, input: 'make the plan\n'});
	assert.equal(lines.code, 0, lines.stderr);
	assert.match(
		toolResults(mock.requests[before + 1]!.body).get('call_line') ?? '',
		/uiDialog: extension dialogs: line mode has no screen to ask on, so the confirm dialog "Proceed with the plan\?" was not shown/,
	);
});
