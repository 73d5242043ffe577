// The chat screen's approval broker (source/tui/brokers/approval-broker.ts): one
// question at a time, so child agents asking while another question is open
// wait their turn; a question whose call is cancelled is withdrawn.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {ApprovalBroker} from '../../source/tui/brokers/approval-broker.js';

const request = (id: string, name = 'write') => ({id, name, arguments: {}, owner: 'native', ask: {title: `Title ${id}`, detail: ''}, external: false});
const shown = async (broker: ApprovalBroker, id: string) => {
	while (broker.getSnapshot()?.request.id !== id) await new Promise(resolve => setTimeout(resolve, 1));
};

test('two questions asked at once are shown one after the other, each answered by its own choice', async () => {
	const broker = new ApprovalBroker();
	const first = broker.askPerson(request('a'));
	const second = broker.askPerson(request('b', 'shell'));
	await shown(broker, 'a');
	broker.getSnapshot()!.answer({kind: 'deny', reason: 'not this one'});
	await shown(broker, 'b');
	broker.getSnapshot()!.answer({kind: 'once'});
	assert.deepEqual(await first, {decision: 'deny', by: 'user', reason: 'the person said no: not this one'});
	assert.deepEqual(await second, {decision: 'allow', by: 'user', reason: null});
	assert.equal(broker.getSnapshot(), null);
});

test('a question whose call is cancelled is withdrawn, shown or queued; the next one comes', async () => {
	const broker = new ApprovalBroker();
	const shownController = new AbortController();
	const queuedController = new AbortController();
	const first = broker.askPerson(request('a'), shownController.signal);
	const second = broker.askPerson(request('b'), queuedController.signal);
	const third = broker.askPerson(request('c'));
	await shown(broker, 'a');
	queuedController.abort();
	shownController.abort();
	const withdrawn = {decision: 'deny', by: 'user', reason: 'the question was withdrawn: the call that asked was cancelled'};
	assert.deepEqual(await first, withdrawn);
	assert.deepEqual(await second, withdrawn);
	await shown(broker, 'c');
	broker.getSnapshot()!.answer({kind: 'always'});
	assert.deepEqual(await third, {decision: 'allow', by: 'user', reason: null});
	// Allowed for the session: asked again, it is not shown.
	assert.deepEqual(await broker.askPerson(request('d')), {decision: 'allow', by: 'user', reason: 'allowed for this session'});
});

test('a question waiting behind one answered "always" for the same tool is allowed without being shown', async () => {
	const started: string[] = [];
	const broker = new ApprovalBroker({started: prompt => started.push(prompt.id), ended: () => {}});
	const first = broker.askPerson(request('a'));
	const second = broker.askPerson(request('b'));
	await shown(broker, 'a');
	broker.getSnapshot()!.answer({kind: 'always'});
	assert.deepEqual(await first, {decision: 'allow', by: 'user', reason: null});
	assert.deepEqual(await second, {decision: 'allow', by: 'user', reason: 'allowed for this session'});
	assert.equal(broker.getSnapshot(), null);
	assert.deepEqual(started, ['a'], 'only the first was shown');
});

test('an interrupt denies the question shown and the ones waiting, and leaves nothing on screen', async () => {
	const broker = new ApprovalBroker();
	const first = broker.askPerson(request('a'));
	const second = broker.askPerson(request('b', 'shell'));
	await shown(broker, 'a');
	broker.cancel();
	const interrupted = {decision: 'deny', by: 'user', reason: 'the person said no: the turn was interrupted'};
	assert.deepEqual(await first, interrupted);
	assert.deepEqual(await second, interrupted);
	assert.equal(broker.getSnapshot(), null);
});

test('the box is shown exactly what runs: bidi and invisible characters marked in the title, detail, name and owner', async () => {
	const broker = new ApprovalBroker();
	const command = 'echo cleanup-temp-files #\u202E; rm -rf ./build';
	const asked = broker.askPerson({
		id: 'x',
		name: 'shell',
		arguments: {command},
		owner: 'extension e\u2066vil (/x/e.mjs)',
		ask: {title: `Run: ${command}`, detail: `${command}\r\n\nin /w\u200B\u001B[2J`},
		external: false,
	});
	await shown(broker, 'x');
	const {request: drawn} = broker.getSnapshot()!;
	assert.equal(drawn.ask.title, 'Run: echo cleanup-temp-files #⟨U+202E⟩; rm -rf ./build');
	assert.equal(drawn.ask.detail, 'echo cleanup-temp-files #⟨U+202E⟩; rm -rf ./build\n\nin /w⟨U+200B⟩\uFFFD[2J');
	assert.equal(drawn.owner, 'extension e⟨U+2066⟩vil (/x/e.mjs)');
	// What the core gets back is about the call itself: its arguments are untouched.
	assert.deepEqual(drawn.arguments, {command});
	broker.getSnapshot()!.answer({kind: 'once'});
	assert.deepEqual(await asked, {decision: 'allow', by: 'user', reason: null});
});

test('"always, for this project": the rule found for the call is shown with the question and written when chosen; without one, none is offered', async () => {
	const broker = new ApprovalBroker();
	const asked: string[] = [];
	const remembered: string[] = [];
	broker.provideRules({
		ruleFor: async ({name}: {name: string}) => {
			asked.push(name);
			if (name === 'broken') throw new Error('cannot tell');
			return name === 'shell' ? 'shell(npm test *)' : null;
		},
		remember: async rule => void remembered.push(rule),
	});
	const first = broker.askPerson(request('a', 'shell'));
	await shown(broker, 'a');
	assert.equal(broker.getSnapshot()!.rule, 'shell(npm test *)');
	broker.getSnapshot()!.answer({kind: 'remember'});
	assert.deepEqual(await first, {decision: 'allow', by: 'user', reason: null});
	assert.deepEqual(remembered, ['shell(npm test *)']);
	for (const name of ['write', 'broken']) {
		const next = broker.askPerson(request(name, name));
		await shown(broker, name);
		assert.equal(broker.getSnapshot()!.rule, null, name);
		broker.getSnapshot()!.answer({kind: 'once'});
		await next;
	}

	assert.deepEqual(asked, ['shell', 'write', 'broken']);
	assert.deepEqual(remembered, ['shell(npm test *)'], 'written only when chosen');
	// Nothing is allowed for the session by it: the rule decides the next call.
	assert.equal(broker.allowed.size, 0);
});

test('"allow for this session" of a sandboxed shell call never lets a command out of the sandbox; outside, no rule is offered', async () => {
	const broker = new ApprovalBroker();
	broker.provideRules({ruleFor: async () => 'shell(make *)', remember: async () => {}});
	const inside = broker.askPerson(request('a', 'shell'));
	await shown(broker, 'a');
	assert.equal(broker.getSnapshot()!.rule, 'shell(make *)');
	broker.getSnapshot()!.answer({kind: 'always'});
	assert.deepEqual(await inside, {decision: 'allow', by: 'user', reason: null});
	const outsideRequest = (id: string) => ({...request(id, 'shell'), ask: {title: `Run outside the sandbox: ${id}`, detail: '', outsideSandbox: true}});
	const outside = broker.askPerson(outsideRequest('b'));
	await shown(broker, 'b');
	assert.equal(broker.getSnapshot()!.rule, null);
	broker.getSnapshot()!.answer({kind: 'always'});
	assert.deepEqual(await outside, {decision: 'allow', by: 'user', reason: null});
	// Now both kinds are allowed for the session, each by its own answer.
	assert.deepEqual(await broker.askPerson(outsideRequest('c')), {decision: 'allow', by: 'user', reason: 'allowed for this session'});
	assert.deepEqual(await broker.askPerson(request('d', 'shell')), {decision: 'allow', by: 'user', reason: 'allowed for this session'});
});
