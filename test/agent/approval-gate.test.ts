import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createApprovalGate, type AskPerson, type ApprovalRequest} from '../../source/core/agent/approval-gate.js';

const ask = {title: 'Edit a.txt', detail: '--- a.txt\n+++ a.txt'};
const request = (overrides: Partial<ApprovalRequest> = {}): ApprovalRequest => ({id: 'c1', name: 'edit', arguments: {path: 'a.txt'}, owner: 'native', ask, external: false, ...overrides});

function recordingPerson(decision: 'allow' | 'deny'): AskPerson & {asked: number} {
	const person = Object.assign(
		async () => {
			person.asked++;
			return {decision, by: 'user' as const, reason: decision === 'deny' ? 'not now' : null};
		},
		{asked: 0},
	);
	return person;
}

test('a tool without an ask runs without asking anyone', async () => {
	const person = recordingPerson('deny');
	const gate = createApprovalGate({mode: {current: 'default'}, askPerson: person});
	assert.deepEqual(await gate(request({name: 'read', ask: null})), {decision: 'allow', by: 'auto', reason: null});
	assert.equal(person.asked, 0);
});

test('an ask goes to the person, whose answer stands', async () => {
	const person = recordingPerson('deny');
	const gate = createApprovalGate({mode: {current: 'default'}, askPerson: person});
	assert.deepEqual(await gate(request()), {decision: 'deny', by: 'user', reason: 'not now'});
	assert.equal(person.asked, 1);
});

test('--yolo allows an ask without asking', async () => {
	const person = recordingPerson('deny');
	const gate = createApprovalGate({mode: {current: 'bypassPermissions'}, askPerson: person});
	assert.deepEqual(await gate(request()), {decision: 'allow', by: 'yolo', reason: null});
	assert.equal(person.asked, 0);
});

test('external tools always ask, even with no ask of their own', async () => {
	const person = recordingPerson('allow');
	const gate = createApprovalGate({mode: {current: 'default'}, askPerson: person});
	const outcome = await gate(request({name: 'my_tool', ask: null, external: true}));
	assert.equal(outcome.decision, 'allow');
	assert.equal(person.asked, 1);
});

test('the policy sees the proposed decision and may allow, ask or deny; a deny stands even with --yolo', async () => {
	const seen: unknown[] = [];
	const person = recordingPerson('allow');
	for (const [answer, expected] of [
		[{decision: 'allow'}, {decision: 'allow', by: 'policy', reason: null}],
		[{decision: 'deny'}, {decision: 'deny', by: 'policy', reason: 'denied by the approval policy'}],
		[{decision: 'ask'}, {decision: 'allow', by: 'yolo', reason: null}],
	] as const) {
		const gate = createApprovalGate({
			mode: {current: 'bypassPermissions'},
			askPerson: person,
			async policy(data) {
				seen.push(data);
				return answer;
			},
		});
		assert.deepEqual(await gate(request()), expected);
	}

	assert.deepEqual(seen[0], {name: 'edit', arguments: {path: 'a.txt'}, external: false, decision: 'ask'});
});

test('an invalid policy answer or a failing policy never allows', async () => {
	for (const policy of [async () => ({decision: 'yes'}), async () => 'allow', async () => null, async () => Promise.reject(new Error('worker died'))]) {
		const gate = createApprovalGate({mode: {current: 'bypassPermissions'}, askPerson: recordingPerson('allow'), policy});
		const outcome = await gate(request({name: 'read', ask: null}));
		assert.equal(outcome.decision, 'deny');
		assert.equal(outcome.by, 'policy');
		assert.match(outcome.reason ?? '', /approval policy failed/);
	}
});

test('a policy cannot waive the ask of an external tool: only the person or --yolo can allow it', async () => {
	const person = recordingPerson('deny');
	const allowAll = async () => ({decision: 'allow'});
	const gate = createApprovalGate({mode: {current: 'default'}, askPerson: person, policy: allowAll});
	const outcome = await gate(request({name: 'my_tool', ask: null, external: true}));
	assert.equal(outcome.decision, 'deny');
	assert.equal(outcome.by, 'user');
	assert.equal(person.asked, 1);
	const yolo = createApprovalGate({mode: {current: 'bypassPermissions'}, askPerson: person, policy: allowAll});
	assert.deepEqual(await yolo(request({name: 'my_tool', ask: null, external: true})), {decision: 'allow', by: 'yolo', reason: null});
});
