// sendMessage from the chat screen (spec/extensions.md §3; issue 14 item 6): a command
// that sends while idle adds to the context without asking the model, or,
// with triggerTurn: true, starts a run as if the person had sent it; the
// message renderer draws it; a resumed session draws it again. In a real
// pseudo-terminal against the mock provider.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox} from '../helpers/cli.js';
import {lastUserText, startChat} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const extension = `
	export default function register(api) {
		api.registerMessageRenderer('goal', message => ({lines: ['GOAL » ' + message.content, 'set by ' + message.details.by]}));
		api.registerEntryRenderer('mark', entry => 'MARK ' + entry.data.n);
		api.registerCommand('goal', {
			description: 'sets the goal and asks the model',
			async handler(args) {
				const result = await api.runtime.sendMessage({customType: 'goal', content: args, display: true, details: {by: 'goal'}, triggerTurn: true});
				return 'goal ' + result.status;
			},
		});
		api.registerCommand('note', {
			description: 'adds a note to the context',
			async handler(args) {
				await api.runtime.appendEntry({customType: 'mark', data: {n: args.length}});
				const result = await api.runtime.sendMessage({customType: 'goal', content: args, display: true, details: {by: 'note'}});
				return 'note ' + result.status;
			},
		});
	}
`;

test('an idle send from a command adds context without a request; with triggerTurn it starts a run, drawn by the renderer; a resume draws both again', async () => {
	const box = makeSandbox();
	const file = join(box.root, 'goal.mjs');
	writeFileSync(file, extension);
	const session = join(box.root, 'chat.json');
	const args = ['--extension', file, '--session', session];
	let {run} = await startChat(mock, {box, args});
	try {
		const before = mock.requests.length;
		run.type('/note remember milk\r');
		await run.waitFor(screen => screen.includes('GOAL » remember milk') && screen.includes('set by note') && screen.includes('MARK 13') && screen.includes('note appended'), 'the note, drawn');
		assert.equal(mock.requests.length, before, 'an idle send without triggerTurn asks the model nothing');

		mock.enqueue({text: 'Working on the goal now.'});
		run.type('/goal ship it\r');
		await run.waitFor(screen => screen.includes('GOAL » ship it') && screen.includes('Working on the goal now.'), 'the triggered run and its answer');
		assert.equal(mock.requests.length, before + 1);
		const body = mock.requests.at(-1)!.body;
		assert.equal(lastUserText(body), 'ship it');
		assert.ok(JSON.stringify(body).includes('remember milk'), 'the note was in the context');
		assert.ok(!JSON.stringify(body).includes('MARK') && !JSON.stringify(body).includes('"mark"'), 'the entry never is');
	} finally {
		await run.close();
	}

	({run} = await startChat(mock, {box, args}));
	try {
		await run.waitFor(screen => screen.includes('GOAL » remember milk') && screen.includes('GOAL » ship it') && screen.includes('MARK 13'), 'the resumed session drawn again');
	} finally {
		await run.close();
	}
});
