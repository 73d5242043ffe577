// SendMessage and AppendEntry through real `i` processes against the mock
// provider (spec/extensions.md §3, adding context during a run and the
// delivery options): each row of the triggerTurn / deliverAs table during a
// tool batch and while idle; the mock's request log shows what the model saw
// and when.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli} from '../helpers/cli.js';
import {deliverCall, startLineSession, userTexts, writeExtension} from './line-session.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

test('during a tool batch: steering after the batch, followUp after the model stopped, context without a reply, nextTurn before the next explicit input only', async () => {
	const mock = await startMockProvider();
	try {
		mock.enqueue(
			deliverCall('c1', [
				{text: 'steer-default'},
				{customType: 'note', content: 'steer-explicit', deliverAs: 'steer', display: true},
				{text: 'trigger-true', triggerTurn: true},
				{text: 'trigger-followup', triggerTurn: true, deliverAs: 'followUp'},
				{text: 'followup', options: {deliverAs: 'followUp'}},
				{text: 'context-only', triggerTurn: false},
				{text: 'next', deliverAs: 'nextTurn'},
				{text: 'next-trigger', options: {triggerTurn: true, deliverAs: 'nextTurn'}},
				{action: 'appendEntry', customType: 'state', data: {n: 1}},
				{action: 'appendEntry', message: {customType: 'ctx', content: 'entry-message'}},
			]),
			{text: 'answer'},
			{text: 'after the follow-ups'},
			{text: 'second answer'},
		);
		const session = startLineSession(mock);
		session.send('go');
		await session.waitFor(() => session.done() === 1, 'the first turn');
		const [round] = session.deliveries();
		assert.equal(round!.during, 'tool');
		const results = round!.results;
		for (const result of results) assert.match(result.entryId, uuid, JSON.stringify(result));
		assert.equal(new Set(results.map((result: any) => result.entryId)).size, results.length, 'each delivery has its own ID');
		assert.deepEqual(
			results.map(({entryId, ...rest}: any) => rest),
			[
				{status: 'queued', deliverAs: 'steer'},
				{status: 'queued', deliverAs: 'steer'},
				{status: 'queued', deliverAs: 'steer'},
				{status: 'queued', deliverAs: 'followUp'},
				{status: 'queued', deliverAs: 'followUp'},
				{status: 'queued', queue: 'context'},
				{status: 'queued', deliverAs: 'nextTurn'},
				{status: 'queued', deliverAs: 'nextTurn'},
				{status: 'queued'},
				{status: 'queued', queue: 'context'},
			],
		);

		// Request 2 follows the batch: its results, then what was steered, the silent context update and the entry's message; the rest waits.
		assert.equal(mock.requests.length, 3, 'the batch, its follow-up continuation, and no reply for the context-only message');
		const second = mock.requests[1]!.body;
		const roles = (second.messages as Array<{role: string}>).map(message => message.role);
		assert.deepEqual(roles.slice(-6), ['tool', 'user', 'user', 'user', 'user', 'user']);
		assert.deepEqual(userTexts(second).slice(-5), ['steer-default', 'steer-explicit', 'trigger-true', 'context-only', 'entry-message']);
		for (const body of [second]) for (const text of ['followup', 'trigger-followup', 'next', 'next-trigger']) assert.ok(!userTexts(body).includes(text), text);
		// The custom message's metadata never reaches the wire.
		for (const request of mock.requests) {
			for (const message of request.body.messages as Array<Record<string, unknown>>) if (message.role === 'user') assert.deepEqual(Object.keys(message).sort(), ['content', 'role']);
			assert.doesNotMatch(JSON.stringify(request.body), /_extension_message/);
		}
		// Request 3: the model had stopped; the follow-ups came and the run went on. nextTurn still waits: this is a continuation.
		const third = mock.requests[2]!.body;
		assert.deepEqual(userTexts(third).slice(-2), ['trigger-followup', 'followup']);
		for (const text of ['next', 'next-trigger']) assert.ok(!userTexts(third).includes(text), text);
		const first = session.events();
		const committed = first.filter(event => event.type === 'custom_message').map(event => event.content);
		assert.deepEqual(committed, ['steer-default', 'steer-explicit', 'trigger-true', 'context-only', 'entry-message', 'trigger-followup', 'followup']);
		const note = first.find(event => event.type === 'custom_message' && event.customType === 'note')!;
		assert.equal(note.display, true);
		assert.equal(note.extension, 'deliver');
		const entry = first.find(event => event.type === 'entry')!;
		assert.deepEqual({customType: entry.customType, data: entry.data, id: entry.id}, {customType: 'state', data: {n: 1}, id: results[8].entryId});
		// Committed after the batch's results, before the next request's answer.
		const order = first.map(event => event.type);
		assert.ok(order.indexOf('tool_result') < order.indexOf('custom_message'));
		assert.ok(order.indexOf('entry') < order.indexOf('text_delta'));

		session.send('second');
		await session.waitFor(() => session.done() === 2, 'the second turn');
		assert.equal(mock.requests.length, 4);
		assert.deepEqual(userTexts(mock.requests[3]!.body).slice(-3), ['next', 'next-trigger', 'second'], 'nextTurn messages go before the new input');
		const end = await session.end();
		assert.equal(end.code, 0, session.stderr());

		// The session file: the entry is a line of its own, never a message; every queued ID was committed once.
		const path = session.events().find(event => event.type === 'session')!.path as string;
		const lines = readFileSync(path, 'utf8')
			.trim()
			.split('\n')
			.map(line => JSON.parse(line));
		const entries = lines.filter(line => line.type === 'entry');
		assert.deepEqual(
			entries.map(line => [line.customType, line.data]),
			[['state', {n: 1}]],
		);
		const stepped = lines.filter(line => line.type === 'step').flatMap(line => line.messages.map((message: any) => message._extension_message?.id).filter(Boolean));
		assert.deepEqual(
			stepped.sort(),
			results
				.filter((result: any) => result.deliverAs !== undefined || result.queue !== undefined)
				.map((result: any) => result.entryId)
				.sort(),
		);
		assert.ok(!lines.some(line => line.type === 'step' && JSON.stringify(line).includes('"state"')), 'an entry never enters the history');
	} finally {
		await mock.close();
	}
});

test('idle: no triggerTurn and triggerTurn false only add to the context; nextTurn waits; triggerTurn true starts a run, after what waited for it', async () => {
	const mock = await startMockProvider();
	try {
		mock.enqueue({text: 'hello'});
		const session = startLineSession(mock);
		session.send('hi');
		await session.waitFor(() => session.done() === 1, 'the first turn');
		const idle = await session.idle([
			{text: 'plain'},
			{customType: 'quiet', content: [{type: 'text', text: 'context'}], triggerTurn: false},
			{text: 'follow idle', deliverAs: 'followUp'},
			{text: 'steer idle', options: {deliverAs: 'steer'}},
			{text: 'later', deliverAs: 'nextTurn', triggerTurn: true},
			{action: 'appendEntry', customType: 'mark', data: [1, 2]},
			{action: 'appendEntry', message: {role: 'user', content: 'entry-message'}},
			{text: 'both', triggerTurn: true, options: {triggerTurn: true}},
		]);
		assert.deepEqual(
			idle.map(({entryId, message, ...rest}: any) => rest),
			[
				{status: 'appended'},
				{status: 'appended', queue: 'context'},
				{status: 'appended'},
				{status: 'appended'},
				{status: 'queued', deliverAs: 'nextTurn'},
				{status: 'appended'},
				{status: 'appended', queue: 'context'},
				{error: 'invalid_argument'},
			],
		);
		assert.match(idle[7].message, /sendMessage: extension deliver: options are given both in options and at the top level \(triggerTurn\); use one of the two/);
		assert.equal(mock.requests.length, 1, 'idle sends without triggerTurn never ask the model');

		mock.enqueue({text: 'two'});
		session.send('two');
		await session.waitFor(() => session.done() === 2, 'the second turn');
		assert.equal(mock.requests.length, 2);
		assert.deepEqual(userTexts(mock.requests[1]!.body), ['hi', 'plain', 'context', 'follow idle', 'steer idle', 'entry-message', 'later', 'two']);

		// triggerTurn: true while idle starts a run, the message its input; a nextTurn message waiting goes before it.
		mock.enqueue({text: 'triggered'});
		const [waiting] = await session.idle([{text: 'waited', deliverAs: 'nextTurn'}]);
		assert.equal(waiting.status, 'queued');
		// It resolves once that run ended, with the run's status (spec/extensions.md §3).
		const [started] = await session.idle([{customType: 'goal', content: 'goal updated', display: true, triggerTurn: true}]);
		assert.deepEqual({status: started.status}, {status: 'stop'});
		assert.match(started.entryId, uuid);
		assert.equal(session.done(), 3, 'the triggered turn ended before the send resolved');
		assert.equal(mock.requests.length, 3);
		assert.deepEqual(userTexts(mock.requests[2]!.body).slice(-3), ['two', 'waited', 'goal updated']);
		const events = session.events();
		assert.equal(
			events
				.filter(event => event.type === 'text_delta')
				.map(event => event.text)
				.join(''),
			'hellotwotriggered',
		);
		assert.equal(events.find(event => event.type === 'custom_message' && event.customType === 'goal')?.display, true);

		// A run that fails: the send says so, with what failed.
		mock.enqueue({status: 400, errorMessage: 'the model refused'});
		const [failed] = await session.idle([{text: 'fail please', triggerTurn: true}]);
		assert.equal(failed.status, 'error');
		assert.match(failed.error, /the model refused/);
		assert.equal(session.done(), 4);
		assert.equal((await session.end()).code, 1, session.stderr());
	} finally {
		await mock.close();
	}
});

test('line mode shows a displayed message as one line; -p prints none of it on stdout and refuses an idle trigger, while a followUp during its turn still runs', async () => {
	const mock = await startMockProvider();
	try {
		// Line mode, text output: a short line on stderr for display: true only.
		const box = makeSandbox();
		box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
		const extension = writeExtension(box);
		mock.enqueue(deliverCall('c1', [{customType: 'goal', content: 'shown line\nsecond line', display: true}, {customType: 'hidden', content: 'not shown'}, {text: 'plain shown'}]), {text: 'ok'});
		let run = await runCli(['--yolo', '--extension', extension, '-C', box.workspace], {env: box.env, input: 'go\n'});
		assert.equal(run.code, 0, run.stderr);
		assert.match(run.stderr, /^i: \[goal\] shown line$/m);
		assert.match(run.stderr, /^i: message from deliver plain shown$/m);
		assert.doesNotMatch(run.stderr, /not shown/);
		assert.equal(run.stdout, 'ok\n');

		// -p: a followUp sent during the turn still runs; nothing of the messages reaches stdout.
		const before = mock.requests.length;
		mock.enqueue(deliverCall('c2', [{customType: 'goal', content: 'follow', display: true, deliverAs: 'followUp'}]), {text: 'first'}, {text: ' then'});
		run = await runCli(['-p', 'go', '--yolo', '--extension', extension, '-C', box.workspace], {env: box.env});
		assert.equal(run.code, 0, run.stderr);
		assert.equal(run.stdout, 'first then\n');
		assert.equal(mock.requests.length - before, 3);
		assert.deepEqual(userTexts(mock.requests.at(-1)!.body).slice(-1), ['follow']);
		assert.doesNotMatch(run.stderr, /\[goal\]/, '-p shows no messages');

		// -p has no run to start for an idle trigger: refused, not queued.
		const start = join(box.root, 'at-start.json');
		writeFileSync(start, JSON.stringify([{text: 'wake up', triggerTurn: true}, {text: 'just context'}]));
		mock.enqueue({text: 'answer'});
		run = await runCli(['-p', 'hello', '--json', '--extension', extension, '-C', box.workspace], {env: {...box.env, DELIVERY_AT_START: start}});
		assert.equal(run.code, 0, run.stderr);
		const delivered = JSON.parse(
			run.stderr
				.split('\n')
				.find(line => line.startsWith('DELIVERED '))!
				.slice('DELIVERED '.length),
		);
		assert.equal(delivered.results[0].error, 'unavailable');
		assert.match(delivered.results[0].message, /i -p runs only its one turn/);
		assert.equal(delivered.results[1].status, 'appended');
		assert.deepEqual(userTexts(mock.requests.at(-1)!.body), ['just context', 'hello']);
		// --json prints the committed message as an event.
		assert.ok(run.stdout.split('\n').some(line => line.includes('"type":"custom_message"') && line.includes('just context')));
	} finally {
		await mock.close();
	}
});
