// The agent's rewind (the chat screen's /rewind drives these three calls):
// a turn saves its prompt with the time it was sent, edit keeps what it
// replaced, and rewinding cuts the history and puts the file back, unless
// an extension's SessionBeforeTree gate refuses.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {scriptedAgent} from '../fixtures/scripted-agent.js';
import {FileHistory} from '../../source/core/rewind/file-history.js';
import {createEditTool} from '../../source/core/tools/edit.js';

const both = {conversation: true, files: true, overwrite: false};

async function agentWithHistory(extensions?: string[]) {
	const state = mkdtempSync(join(tmpdir(), 'i-rewind-state-'));
	const history = new FileHistory({folder: async () => state, warn: message => assert.fail(message)});
	const run = await scriptedAgent({
		replies: [{toolCalls: [{id: 'e1', name: 'edit', arguments: {path: 'a.txt', old_text: 'one', new_text: 'two'}}]}, {text: 'Edited.'}],
		tools: [createEditTool({history})],
		yolo: true,
		history,
		...(extensions ? {extensions} : {}),
	});
	writeFileSync(join(run.workspace, 'a.txt'), 'one\n');
	return run;
}

test('a turn saves its prompt with the time it was sent; rewinding to it puts the edited file back and leaves the history before it', async () => {
	const run = await agentWithHistory();
	try {
		const before = Date.now();
		const outcome = await run.agent.runTurn('change a', new AbortController().signal);
		assert.equal(outcome.reason, 'stop');
		assert.equal(readFileSync(join(run.workspace, 'a.txt'), 'utf8'), 'two\n');
		const [point] = run.agent.rewindPoints();
		assert.equal(point?.text, 'change a');
		assert.ok(point.sentAt !== null && point.sentAt >= before && point.sentAt <= Date.now());

		const plan = await run.agent.planRewind(point);
		assert.deepEqual(
			plan.files.map(file => file.display),
			['a.txt'],
		);
		assert.deepEqual(await run.agent.rewind(plan, both), {conversation: true, restored: ['a.txt'], skipped: []});
		assert.equal(readFileSync(join(run.workspace, 'a.txt'), 'utf8'), 'one\n');
		// The rewound history is saved: a resume sees the system prompt only.
		assert.deepEqual(
			(await run.saved()).map(message => message.role),
			['system'],
		);
	} finally {
		await run.close();
	}
});

test("an extension's SessionBeforeTree gate may refuse a rewind: nothing changes; SessionTree observers hear a rewind that was done", async () => {
	const folder = mkdtempSync(join(tmpdir(), 'i-rewind-extension-'));
	const file = join(folder, 'guard.mjs');
	writeFileSync(
		file,
		`const heard = (globalThis[Symbol.for('i-rewind-test.heard')] ??= []);
export default function register(api) {
	api.registerEventHandler('SessionBeforeTree', event => (event.files ? {cancel: true, reason: 'files stay here'} : {}));
	api.registerEventHandler('SessionTree', event => { heard.push(event); });
}
`,
	);
	const heard: Array<Record<string, unknown>> = [];
	(globalThis as Record<symbol, unknown>)[Symbol.for('i-rewind-test.heard')] = heard;
	const run = await agentWithHistory([file]);
	try {
		await run.agent.runTurn('change a', new AbortController().signal);
		const plan = await run.agent.planRewind(run.agent.rewindPoints()[0]!);
		assert.deepEqual(await run.agent.rewind(plan, both), {refused: {by: 'guard', reason: 'files stay here'}});
		assert.equal(readFileSync(join(run.workspace, 'a.txt'), 'utf8'), 'two\n');
		assert.equal(run.agent.session.messages.length, 5);

		const outcome = await run.agent.rewind(plan, {conversation: true, files: false, overwrite: false});
		assert.deepEqual(outcome, {conversation: true, restored: [], skipped: []});
		for (let tries = 0; heard.length === 0 && tries < 100; tries++) await new Promise(resolve => setTimeout(resolve, 10));
		assert.deepEqual(heard, [{sessionId: run.agent.session.id, path: run.agent.session.path, messageCount: 1, targetIndex: 1, conversation: true, restored: []}]);
	} finally {
		await run.close();
	}
});
