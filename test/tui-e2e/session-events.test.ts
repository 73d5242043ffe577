// Session events at every switch, in the chat screen (issue 47): /clear,
// /resume and /fork ask SessionBeforeSwitch (a cancel keeps the session) and
// are bracketed by SessionShutdown and SessionStart with the reason; /rename
// fires SessionInfoChanged; the last SessionShutdown names the session open.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, writeExtensionFile} from '../helpers/cli.js';
import {TYPEAHEAD_GUARD_MS} from '../../components/Approval.js';
import {startChat} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const pause = async (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

test('/clear, /fork and /resume ask SessionBeforeSwitch and are bracketed by SessionShutdown and SessionStart; /rename fires SessionInfoChanged; the last SessionShutdown names the open session', async () => {
	const box = makeSandbox();
	const log = join(box.root, 'events.jsonl');
	const veto = join(box.root, 'veto');
	const file = writeExtensionFile(
		box,
		'events.mjs',
		`import {appendFileSync, existsSync} from 'node:fs';
const note = (tag, event) => appendFileSync(${JSON.stringify(log)}, JSON.stringify({tag, ...event}) + '\\n');
export default api => {
	for (const tag of ['SessionStart', 'SessionShutdown', 'SessionInfoChanged']) api.registerEventHandler(tag, event => note(tag, event));
	api.registerEventHandler('SessionBeforeSwitch', event => {
		note('SessionBeforeSwitch', event);
		return existsSync(${JSON.stringify(veto)}) ? {cancel: true, reason: 'not now'} : {};
	});
};
`,
	);
	const events = () =>
		existsSync(log)
			? readFileSync(log, 'utf8')
					.trim()
					.split('\n')
					.map(line => JSON.parse(line))
			: [];
	const {run} = await startChat(mock, {box, args: ['--extension', file], rows: 40, cols: 160});
	try {
		mock.enqueue({text: 'first answer'});
		run.type('the first topic\r');
		await run.waitFor(screen => screen.includes('first answer'), 'the answer');
		const first = events().find(event => event.tag === 'SessionStart')!.sessionId;

		run.type('/rename renamed-topic\r');
		await run.waitUntil(() => events().some(event => event.tag === 'SessionInfoChanged'), 'SessionInfoChanged');
		const renamed = events().find(event => event.tag === 'SessionInfoChanged');
		assert.equal(renamed.name, 'renamed-topic');
		assert.ok(renamed.path.endsWith('renamed-topic.json') && renamed.previousPath !== renamed.path, JSON.stringify(renamed));

		// Refused: the session stays, the screen says who refused and why.
		writeFileSync(veto, '');
		run.type('/clear\r');
		await run.waitFor(screen => screen.includes('extension events refused /clear (SessionBeforeSwitch): not now; this session goes on'), 'the refusal', {whole: true});
		assert.ok(!events().some(event => event.tag === 'SessionShutdown'), 'nothing was shut down');
		rmSync(veto);

		await pause(TYPEAHEAD_GUARD_MS);
		run.type('/clear\r');
		await run.waitUntil(() => events().filter(event => event.tag === 'SessionStart').length === 2, 'the new session’s SessionStart');
		const cleared = events().slice(-3);
		assert.deepEqual(
			cleared.map(event => [event.tag, event.reason]),
			[
				['SessionBeforeSwitch', 'new'],
				['SessionShutdown', 'new'],
				['SessionStart', 'new'],
			],
		);
		assert.equal(cleared[0].sessionId, first);
		assert.equal(cleared[1].sessionId, first);
		const second = cleared[2].sessionId;
		assert.notEqual(second, first);

		mock.enqueue({text: 'second answer'});
		run.type('the second topic\r');
		await run.waitFor(screen => screen.includes('second answer'), 'the second answer');
		run.type('/fork\r');
		await run.waitUntil(() => events().filter(event => event.tag === 'SessionStart').length === 3, 'the fork’s SessionStart');
		const forked = events().slice(-3);
		assert.deepEqual(
			forked.map(event => [event.tag, event.reason, event.tag === 'SessionBeforeSwitch' ? event.targetPath : undefined]),
			[
				['SessionBeforeSwitch', 'fork', null],
				['SessionShutdown', 'fork', undefined],
				['SessionStart', 'fork', undefined],
			],
		);
		const fork = forked[2].sessionId;

		// /resume back to the renamed first session: the picker, then the same bracket with its path.
		run.type('/resume\r');
		await run.waitFor(screen => screen.includes('Resume a session') && screen.includes('renamed-topic'), 'the picker');
		for (let attempt = 1; ; attempt++) {
			run.type('renamed');
			try {
				await run.waitFor(screen => screen.includes('filter › renamed'), 'the filter', {timeoutMs: 3000});
				break;
			} catch (error) {
				if (attempt === 3) throw error;
			}
		}

		run.type('\r');
		await run.waitUntil(() => events().filter(event => event.tag === 'SessionStart').length === 4, 'the resumed session’s SessionStart');
		const resumed = events().slice(-3);
		assert.deepEqual(
			resumed.map(event => [event.tag, event.reason]),
			[
				['SessionBeforeSwitch', 'resume'],
				['SessionShutdown', 'resume'],
				['SessionStart', 'resume'],
			],
		);
		assert.ok(resumed[0].targetPath.endsWith('renamed-topic.json'), resumed[0].targetPath);
		assert.equal(resumed[1].sessionId, fork);
		assert.equal(resumed[2].sessionId, first);

		run.type('/exit\r');
		await run.exit();
		const last = events().at(-1);
		assert.deepEqual([last.tag, last.reason, last.sessionId], ['SessionShutdown', 'exit', first]);
	} finally {
		await run.close();
	}
});
