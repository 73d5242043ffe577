import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createApprovalGate, type ApprovalRequest, type AskPerson, type PermissionCheck, type RuleAnswer} from '../../source/core/agent/approval-gate.js';
import {denyWithoutTerminal} from '../../source/core/session/setup-agent.js';

const shellAsk = {title: 'Run: rm -rf build', detail: 'rm -rf build\n\nin /w'};
const call = (overrides: Partial<ApprovalRequest> = {}): ApprovalRequest => ({id: 'c1', name: 'shell', arguments: {command: 'rm -rf build'}, ask: shellAsk, external: false, owner: 'native', ...overrides});
const rules =
	(answer: RuleAnswer | null): PermissionCheck =>
	async () =>
		answer;
const denyRule = rules({decision: 'deny', reason: 'denied by the permission rule "shell(rm *)" (/w/.i/settings.json)'});
const askRule = rules({decision: 'ask', reason: 'the permission rule "read(~/notes/**)" (/c/settings.json) asks first'});
const allowRule = rules({decision: 'allow', reason: 'allowed by the permission rule "shell(rm -rf build)" (/c/settings.json)'});

function person(decision: 'allow' | 'deny'): AskPerson & {asked: Array<Parameters<AskPerson>[0]>} {
	const asked: Array<Parameters<AskPerson>[0]> = [];
	return Object.assign(
		async (request: Parameters<AskPerson>[0]) => {
			asked.push(request);
			return {decision, by: 'user' as const, reason: null};
		},
		{asked},
	);
}

test('a deny rule refuses even with --yolo, before any policy, and says which rule', async () => {
	const someone = person('allow');
	let policyAsked = false;
	const gate = createApprovalGate({
		mode: {current: 'bypassPermissions'},
		askPerson: someone,
		rules: denyRule,
		async policy() {
			policyAsked = true;
			return {decision: 'allow'};
		},
	});
	assert.deepEqual(await gate(call()), {decision: 'deny', by: 'rule', reason: 'denied by the permission rule "shell(rm *)" (/w/.i/settings.json)'});
	assert.equal(policyAsked, false);
	assert.equal(someone.asked.length, 0);
});

test('an allow rule runs a call that would ask, without asking; the policy sees the allow and may still tighten it', async () => {
	const someone = person('deny');
	const gate = createApprovalGate({mode: {current: 'default'}, askPerson: someone, rules: allowRule});
	assert.deepEqual(await gate(call()), {decision: 'allow', by: 'rule', reason: 'allowed by the permission rule "shell(rm -rf build)" (/c/settings.json)'});
	assert.equal(someone.asked.length, 0);
	const seen: unknown[] = [];
	for (const [answer, expected] of [
		['allow', {decision: 'allow', by: 'rule'}],
		['deny', {decision: 'deny', by: 'policy'}],
		['ask', {decision: 'deny', by: 'user'}],
	] as const) {
		const policed = createApprovalGate({
			mode: {current: 'default'},
			askPerson: someone,
			rules: allowRule,
			async policy(data) {
				seen.push(data.decision);
				return {decision: answer};
			},
		});
		const outcome = await policed(call());
		assert.deepEqual({decision: outcome.decision, by: outcome.by}, expected, answer);
	}

	assert.deepEqual(seen, ['allow', 'allow', 'allow']);
});

test("a person's allow rule waives an external tool's question; a policy's allow never does", async () => {
	const someone = person('deny');
	const external = call({name: 'mcp__github__create_issue', arguments: {}, ask: null, external: true});
	assert.equal((await createApprovalGate({mode: {current: 'default'}, askPerson: someone, rules: allowRule})(external)).by, 'rule');
	assert.equal(someone.asked.length, 0);
	const policyOnly = createApprovalGate({mode: {current: 'default'}, askPerson: someone, rules: rules(null), policy: async () => ({decision: 'allow'})});
	assert.equal((await policyOnly(external)).by, 'user');
	assert.equal(someone.asked.length, 1);
});

test('an ask rule asks even for a call that needs no question, and a policy (auto mode) cannot waive it; --yolo does', async () => {
	const someone = person('allow');
	const read = call({name: 'read', arguments: {files: [{path: '/home/me/notes/a.md'}]}, ask: null});
	const gate = createApprovalGate({mode: {current: 'default'}, askPerson: someone, rules: askRule, policy: async () => ({decision: 'allow'})});
	assert.deepEqual(await gate(read), {decision: 'allow', by: 'user', reason: null});
	assert.equal(someone.asked.length, 1);
	assert.equal(someone.asked[0]!.ask.title, 'Run read');
	assert.match(someone.asked[0]!.ask.detail, /the permission rule "read\(~\/notes\/\*\*\)" \(\/c\/settings.json\) asks first$/);
	const yolo = createApprovalGate({mode: {current: 'bypassPermissions'}, askPerson: someone, rules: askRule});
	assert.deepEqual(await yolo(read), {decision: 'allow', by: 'yolo', reason: null});
});

test('in -p and line mode an ask rule refuses the call, naming the rule and how to allow it', async () => {
	const gate = createApprovalGate({mode: {current: 'default'}, askPerson: denyWithoutTerminal, rules: askRule});
	const outcome = await gate(call());
	assert.equal(outcome.decision, 'deny');
	assert.equal(outcome.by, 'no_terminal');
	assert.match(outcome.reason!, /^the permission rule "read\(~\/notes\/\*\*\)" \(\/c\/settings.json\) asks first; approval is needed and there is no terminal to ask on; rerun with --yolo .*permission rule/);
});

test('no rule speaking leaves the call as it was; a failing rule check never allows', async () => {
	const someone = person('allow');
	assert.deepEqual(await createApprovalGate({mode: {current: 'default'}, askPerson: someone, rules: rules(null)})(call({name: 'read', ask: null})), {decision: 'allow', by: 'auto', reason: null});
	const broken = createApprovalGate({
		mode: {current: 'bypassPermissions'},
		askPerson: someone,
		async rules() {
			throw new Error('disk on fire');
		},
	});
	assert.deepEqual(await broken(call({name: 'read', ask: null})), {decision: 'deny', by: 'rule', reason: 'the permission rules failed: disk on fire'});
});
