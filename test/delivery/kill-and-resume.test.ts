// AppendEntry and SendMessage across a `kill -9` in the middle of a tool batch
// (spec/extensions.md §3: a cancel, a kill or a resume never loses an accepted
// queued delivery): what the actions accepted is in the session file before
// they resolve; a resume commits it once, never twice.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider} from '../fixtures/mock-provider.js';
import {jsonEvents, makeSandbox, runCli} from '../helpers/cli.js';
import {deliverCall, startLineSession, userTexts} from './line-session.js';

const lines = (path: string) =>
	readFileSync(path, 'utf8')
		.trim()
		.split('\n')
		.map(line => JSON.parse(line) as Record<string, any>);

test('a kill -9 during a tool batch loses no accepted delivery; a resume commits each once, and nextTurn still waits for the next input', async () => {
	const mock = await startMockProvider();
	try {
		const box = makeSandbox();
		const path = join(box.root, 'kept.json');
		mock.enqueue(
			deliverCall(
				'c1',
				[{action: 'appendEntry', customType: 'keep', data: {k: 1}}, {text: 'steer me'}, {text: 'later', deliverAs: 'nextTurn'}, {action: 'appendEntry', message: {customType: 'ctx', content: 'quiet'}}],
				{hang: true},
			),
		);
		const session = startLineSession(mock, {box, args: ['--session', path]});
		session.send('go');
		await session.waitFor(() => session.deliveries().length === 1, 'the deliveries during the batch');
		const results = session.deliveries()[0]!.results;
		assert.deepEqual(
			results.map((result: any) => result.status),
			['queued', 'queued', 'queued', 'queued'],
		);
		session.child.kill('SIGKILL');
		assert.equal((await session.end()).signal, 'SIGKILL');

		// The batch never finished: no step of it, but every accepted delivery is a queued line.
		let file = lines(path);
		assert.deepEqual(
			file.filter(line => line.type === 'queued').map(line => line.id),
			results.map((result: any) => result.entryId),
		);
		assert.equal(file.filter(line => line.type === 'entry').length, 0);

		mock.enqueue({text: 'resumed'});
		let run = await runCli(['-p', 'again', '--json', '--session', path, '-C', box.workspace], {env: box.env});
		assert.equal(run.code, 0, run.stderr);
		assert.deepEqual(userTexts(mock.requests.at(-1)!.body), ['go', 'steer me', 'quiet', 'later', 'again']);
		const events = jsonEvents(run.stdout);
		assert.deepEqual(
			events.filter(event => event.type === 'entry').map(event => [event.id, event.customType, event.data]),
			[[results[0].entryId, 'keep', {k: 1}]],
		);
		assert.deepEqual(
			events.filter(event => event.type === 'custom_message').map(event => event.content),
			['steer me', 'quiet', 'later'],
		);

		mock.enqueue({text: 'again resumed'});
		run = await runCli(['-p', 'once more', '--json', '--session', path, '-C', box.workspace], {env: box.env});
		assert.equal(run.code, 0, run.stderr);
		assert.deepEqual(userTexts(mock.requests.at(-1)!.body), ['go', 'steer me', 'quiet', 'later', 'again', 'once more'], 'nothing is committed twice');
		assert.equal(jsonEvents(run.stdout).filter(event => event.type === 'entry' || event.type === 'custom_message').length, 0);
		file = lines(path);
		assert.deepEqual(
			file.filter(line => line.type === 'entry').map(line => line.id),
			[results[0].entryId],
			'the entry is in the file once',
		);
		const committed = file.filter(line => line.type === 'step').flatMap(line => line.messages.flatMap((message: any) => (message._extension_message ? [message._extension_message.id] : [])));
		assert.deepEqual(committed.sort(), [results[1].entryId, results[2].entryId, results[3].entryId].sort());
	} finally {
		await mock.close();
	}
});

test('a cancelled run commits what it queued (no reply), nextTurn keeps waiting; the pending limit is 256 and the next one is refused', async () => {
	const mock = await startMockProvider();
	try {
		const box = makeSandbox();
		const path = join(box.root, 'cancelled.json');
		const many = Array.from({length: 256}, (_, index) => ({text: `n${index}`, deliverAs: 'nextTurn'}));
		mock.enqueue(deliverCall('c1', [{text: 'steer me'}, {action: 'appendEntry', customType: 'keep', data: 1}, ...many.slice(2), {text: 'one too many', deliverAs: 'nextTurn'}], {hang: true}));
		const session = startLineSession(mock, {box, args: ['--session', path]});
		session.send('go');
		await session.waitFor(() => session.deliveries().length === 1, 'the deliveries during the batch');
		const results = session.deliveries()[0]!.results;
		assert.equal(results.filter((result: any) => result.status === 'queued').length, 256);
		assert.equal(results.at(-1).error, 'limit_reached');
		assert.match(results.at(-1).message, /^sendMessage: the session holds 256 uncommitted deliveries already \(the limit\)/);
		session.child.kill('SIGINT');
		const end = await session.end();
		assert.equal(end.code, 130, session.stderr());
		assert.equal(mock.requests.length, 1, 'a cancelled run asks nothing more, steering or not');
		const events = session.events();
		assert.deepEqual(
			events.filter(event => event.type === 'custom_message').map(event => event.content),
			['steer me'],
		);
		assert.equal(events.filter(event => event.type === 'entry').length, 1);
		const file = lines(path);
		assert.equal(file.filter(line => line.type === 'entry').length, 1);
		assert.equal(file.filter(line => line.type === 'step' && JSON.stringify(line).includes('steer me')).length, 1);

		mock.enqueue({text: 'fine'});
		const run = await runCli(['-p', 'again', '--session', path, '-C', box.workspace], {env: box.env});
		assert.equal(run.code, 0, run.stderr);
		assert.deepEqual(userTexts(mock.requests.at(-1)!.body), ['go', 'steer me', ...many.slice(2).map(item => item.text), 'again']);
	} finally {
		await mock.close();
	}
});

test('a turn whose tool waits on nothing but the cancel keeps the process alive after stdin closes, and SIGINT then ends it with 130', async () => {
	const mock = await startMockProvider();
	try {
		mock.enqueue(deliverCall('c1', [{text: 'held'}], {hang: true}));
		const session = startLineSession(mock);
		session.send('go');
		await session.waitFor(() => session.deliveries().length === 1, 'the tool running');
		// The last line is in: stdin closes while the tool holds the turn (a pipe's end, as in `printf 'go\n' | i`).
		session.child.stdin!.end();
		// Time in which a process with nothing to keep it alive exits (with 0, the turn lost).
		await new Promise(resolve => setTimeout(resolve, 500));
		assert.equal(session.child.exitCode, null, `the process ended in the middle of the turn: ${session.stderr()}`);
		session.child.kill('SIGINT');
		const end = await session.end();
		assert.equal(end.code, 130, session.stderr());
	} finally {
		await mock.close();
	}
});
