// Extension messages and entries on the chat screen (issue 14 item 6): the
// renderers registered with registerMessageRenderer / registerEntryRenderer
// draw them from data; a throw or a wrong answer falls back to the default
// with one notice; hidden messages and entries without a renderer show
// nothing; a resumed session's deliveries show once. Through Ink.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, realpathSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {setTimeout as delay} from 'node:timers/promises';
import {render} from 'ink-testing-library';
import {App} from '../../components/App.js';
import {ApprovalBroker} from '../../source/tui/brokers/approval-broker.js';
import {ChatStore} from '../../source/tui/chat-store.js';
import {customRendering, ENTRY_DEFAULT_CHARS} from '../../source/tui/custom-rendering.js';
import {showSessionHistory} from '../../source/tui/resumed-history.js';
import {startExtensions} from '../../source/core/session/start-extensions.js';
import type {CoreEvent} from '../../source/core/events.js';

const status = {model: 'm', workspace: '/work', session: 's', usage: null, window: null};

async function extensionUi(source: string) {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-render-')));
	const file = join(root, 'render.mjs');
	writeFileSync(file, source);
	const dirs = {config_dir: join(root, 'config'), data_dir: join(root, 'data'), cache_dir: join(root, 'cache'), runtime_dir: join(root, 'runtime')};
	const reports: string[] = [];
	const started = await startExtensions({extensions: [file]}, {workspace: root, dirs, takenToolNames: new Map(), report: message => reports.push(message)});
	return {ui: started.ui, warnings: started.warnings, reports};
}

function screen() {
	const store = new ChatStore(status, {logo: false, frameMs: 0});
	const view = render(<App store={store} broker={new ApprovalBroker()} onSubmit={() => {}} onInterrupt={() => {}} onExit={() => {}} />);
	return {store, view};
}

const message = (
	id: string,
	customType: string | null,
	content: Extract<CoreEvent, {type: 'custom_message'}>['content'],
	display = true,
	details: unknown = null,
): Extract<CoreEvent, {type: 'custom_message'}> => ({
	type: 'custom_message',
	id,
	extension: 'render',
	customType,
	content,
	display,
	details,
});

test('message and entry renderers draw from data; a throw or a wrong answer falls back to the default, with one notice each', async () => {
	const {ui, warnings} = await extensionUi(`export default api => {
		api.registerMessageRenderer('goal', m => ({lines: ['GOAL ' + m.details.percent + '%', 'said: ' + m.content]}));
		api.registerMessageRenderer('broken', () => { throw new Error('renderer bug'); });
		api.registerMessageRenderer('element', () => ({type: 'div', props: {}}));
		api.registerMessageRenderer('nothing', () => undefined);
		api.registerEntryRenderer('state', e => 'state is ' + e.data.n);
		api.registerEntryRenderer('bad-entry', () => Promise.resolve('late'));
	};`);
	assert.deepEqual(warnings, []);
	const {store, view} = screen();
	store.started({});
	const notices: string[] = [];
	store.extend({commands: [], rendering: customRendering(ui, text => notices.push(text))});
	store.apply(message('1', 'goal', 'halfway', true, {percent: 50}));
	store.apply(message('2', 'broken', [{type: 'text', text: 'fallback text'}]));
	store.apply(message('3', 'broken', 'second broken'));
	store.apply(message('4', 'element', 'element fallback'));
	store.apply(message('5', 'nothing', 'nothing fallback'));
	store.apply(message('6', 'hidden', 'never shown', false));
	store.apply(message('7', null, 'a plain message'));
	store.apply({type: 'entry', id: '8', extension: 'render', customType: 'state', data: {n: 3}});
	store.apply({type: 'entry', id: '9', extension: 'render', customType: 'unrendered', data: {secret: true}});
	store.apply({type: 'entry', id: '10', extension: 'render', customType: 'bad-entry', data: {k: 'v'}});
	store.apply({type: 'entry', id: '8', extension: 'render', customType: 'state', data: {n: 3}});
	await delay(20);
	const frame = view.lastFrame()!;
	for (const part of [
		'[goal]',
		'GOAL 50%',
		'said: halfway',
		'[broken]',
		'fallback text',
		'second broken',
		'[element]',
		'element fallback',
		'nothing fallback',
		'[render]',
		'a plain message',
		'[state]',
		'state is 3',
		'[bad-entry]',
		'{"k":"v"}',
	])
		assert.ok(frame.includes(part), `${part} in\n${frame}`);
	for (const part of ['never shown', 'unrendered', 'secret']) assert.ok(!frame.includes(part), part);
	assert.equal(frame.split('state is 3').length, 2, 'a delivery is shown once');
	assert.deepEqual(notices, [
		'the message renderer of extension render for "broken" failed: renderer bug; shown the default way',
		'the message renderer of extension render for "element" answered neither {text}, {lines} nor a string (a renderer is synchronous and returns text, never an element); shown the default way',
		'the entry renderer of extension render for "bad-entry" answered neither {text}, {lines} nor a string (a renderer is synchronous and returns text, never an element); shown the default way',
	]);
	view.unmount();
});

test("a resumed session's messages and entries show once the screen has the renderers, not before", async () => {
	const {ui} = await extensionUi(`export default api => api.registerEntryRenderer('state', e => 'entry ' + e.data);`);
	const {store, view} = screen();
	// During set-up (the screen starting) a resume's events wait for the history.
	const event = message('m1', 'note', 'from before', true);
	store.apply(event);
	store.extend({commands: [], rendering: customRendering(ui, () => {})});
	showSessionHistory(
		{
			messages: [
				{role: 'user', content: 'a person'},
				{role: 'user', content: 'from before', _extension_message: {id: 'm1', extension: 'render', customType: 'note', display: true}} as never,
				{role: 'user', content: 'hidden', _extension_message: {id: 'm2', extension: 'render', customType: 'note', display: false}} as never,
			],
			entries: [{id: 'e1', extension: 'render', customType: 'state', data: 7}],
		},
		store,
	);
	store.started({});
	store.apply(event);
	await delay(20);
	const frame = view.lastFrame()!;
	assert.equal(frame.split('from before').length, 2, frame);
	assert.ok(frame.includes('entry 7'));
	assert.ok(!frame.includes('hidden'));
	assert.equal(frame.split('a person').length, 2, "the person's message is drawn once");
	view.unmount();
});

test('renderer registration: the customType rule, a function, and one renderer per customType in a host (a second is a load error naming both)', async () => {
	let result = await extensionUi(`export default api => api.registerMessageRenderer('bad type', () => 'x');`);
	assert.match(result.warnings.join('\n'), /registerMessageRenderer: the customType must be 1–64 characters of A-Z a-z 0-9 _ \. : - \(got "bad type"\)/);
	result = await extensionUi(`export default api => api.registerEntryRenderer('ok', 'not a function');`);
	assert.match(result.warnings.join('\n'), /registerEntryRenderer ok: the renderer must be a function \(\{customType, data\}\) => \{text\} \| \{lines\}/);
	result = await extensionUi(`export default api => { api.registerMessageRenderer('t', () => 'a'); api.registerEntryRenderer('t', () => 'b'); api.registerMessageRenderer('t', () => 'c'); };`);
	assert.match(result.warnings.join('\n'), /registerMessageRenderer: the message renderer of customType "t" is taken by extension render; one renderer per customType/);
	assert.equal(result.ui.messageRenderers.size, 0, 'a failed register leaves nothing');

	// Across extensions: the second names the first, with its path.
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-render-two-')));
	const first = join(root, 'first.mjs');
	const second = join(root, 'second.mjs');
	writeFileSync(first, `export default api => api.registerEntryRenderer('shared', () => 'first');`);
	writeFileSync(second, `export default api => { api.registerEntryRenderer('shared', () => 'second'); api.registerMessageRenderer('shared', () => 'fine'); };`);
	const dirs = {config_dir: join(root, 'config'), data_dir: join(root, 'data'), cache_dir: join(root, 'cache'), runtime_dir: join(root, 'runtime')};
	const started = await startExtensions({extensions: [first, second]}, {workspace: root, dirs, takenToolNames: new Map(), report: () => {}});
	assert.match(
		started.warnings.join('\n'),
		new RegExp(`second\\.mjs .*was not loaded: register failed: registerEntryRenderer: the entry renderer of customType "shared" is taken by extension first \\(${first.replaceAll('.', '\\.')}\\)`),
	);
	assert.equal(started.ui.entryRenderers.get('shared')?.extension, 'first');
	assert.equal(started.ui.messageRenderers.size, 0);
});

test('an entry whose renderer throws shows its data as JSON, cut at ENTRY_DEFAULT_CHARS with an ellipsis', () => {
	const notices: string[] = [];
	const rendering = customRendering(
		{
			messageRenderers: new Map(),
			entryRenderers: new Map([
				[
					't',
					{
						extension: 'e',
						render: () => {
							throw new Error('boom');
						},
					},
				],
			]),
		},
		message => notices.push(message),
	);
	const long = rendering.entry({type: 'entry', id: '1', extension: 'e', customType: 't', data: 'x'.repeat(300)})!;
	assert.equal(long.text.length, ENTRY_DEFAULT_CHARS);
	assert.ok(long.text.endsWith('…'));
	const short = rendering.entry({type: 'entry', id: '2', extension: 'e', customType: 't', data: {n: 1}})!;
	assert.equal(short.text, '{"n":1}');
	assert.equal(notices.length, 1, 'one notice per extension and customType');
});
