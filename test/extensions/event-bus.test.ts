// The event classes of spec/extensions.md §5: veto, advisory, gate,
// transform and observe, each with its failure rule, per-handler payload
// copies, timeouts, platforms and the bounded observe queue.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {ABORT, EventBus, OBSERVE_QUEUE_LIMIT, type EventHandler, type RegisteredHandler} from '../../source/core/extensions/event-bus.js';
import {eventClass, eventTags, eventTimeoutMs, type EventTag} from '../../source/core/extensions/event-tags.js';
import type {Platform} from '../../source/core/extensions/api.js';
import {readCancel, readToolBlock, readTrustAnswer} from '../../source/core/extensions/event-answers.js';

function handler(extension: string, tag: EventTag, fn: EventHandler, platforms?: Platform[]): RegisteredHandler {
	return {extension, tag, handler: fn, platforms};
}

function bus(handlers: RegisteredHandler[], timeoutMs = 100) {
	const reports: string[] = [];
	const events = new EventBus({handlers, report: message => reports.push(message), platform: 'linux', timeoutMs: () => timeoutMs});
	return {events, reports};
}

test('36 tags, each with one class; the classes of spec/extensions.md §5', () => {
	assert.equal(eventTags.length, 36);
	assert.equal(new Set(eventTags).size, 36);
	assert.equal(eventClass('BeforeTuiStart'), 'veto');
	assert.equal(eventClass('SessionStart'), 'advisory');
	assert.equal(eventClass('ToolCall'), 'gate');
	assert.equal(eventClass('ProjectTrust'), 'gate');
	assert.equal(eventClass('BeforeProviderRequest'), 'transform');
	assert.equal(eventClass('MessageUpdate'), 'observe');
	// Timeouts: 5 s for BeforeTuiStart, 15 s for SessionShutdown, 10 s for the rest.
	assert.deepEqual([eventTimeoutMs('BeforeTuiStart'), eventTimeoutMs('SessionShutdown'), eventTimeoutMs('ToolCall'), eventTimeoutMs('MessageUpdate')], [5000, 15_000, 10_000, 10_000]);
});

test('veto: the first ABORT stops with its reason; a throw or a timeout is skipped, never a veto', async () => {
	const {events, reports} = bus([
		handler('throws', 'BeforeTuiStart', () => {
			throw new Error('no');
		}),
		handler('hangs', 'BeforeTuiStart', () => new Promise(() => {})),
		handler('stops', 'BeforeTuiStart', () => ({...ABORT, reason: 'connect the VPN first'})),
		handler('never-asked', 'BeforeTuiStart', () => assert.fail('after a veto no handler runs')),
	]);
	assert.deepEqual(await events.veto('BeforeTuiStart', {}), {vetoed: true, extension: 'stops', reason: 'connect the VPN first'});
	assert.deepEqual(reports, ['extension throws: BeforeTuiStart handler failed: no; skipped', 'extension hangs: BeforeTuiStart handler did not answer within 0.1 s; skipped']);
	// api.ABORT itself carries no reason: the head words one.
	const {events: plain} = bus([handler('plain', 'BeforeTuiStart', () => ABORT)]);
	assert.deepEqual(await plain.veto('BeforeTuiStart', {}), {vetoed: true, extension: 'plain', reason: null});
	const {events: none} = bus([handler('a', 'BeforeTuiStart', () => undefined)]);
	assert.deepEqual(await none.veto('BeforeTuiStart', {}), {vetoed: false});
});

test('advisory: an ABORT is logged and nothing stops; every handler runs', async () => {
	const ran: string[] = [];
	const {events, reports} = bus([
		handler('a', 'SessionStart', () => {
			ran.push('a');
			return ABORT;
		}),
		handler('b', 'SessionStart', () => void ran.push('b')),
	]);
	await events.advisory('SessionStart', {reason: 'startup'});
	assert.deepEqual(ran, ['a', 'b']);
	assert.deepEqual(reports, ['extension a asked to abort at SessionStart; SessionStart is advisory, so nothing stops']);
});

const readBlock = (answer: unknown) => {
	const value = answer as {block?: unknown; reason?: unknown} | undefined;
	if (value?.block === true) return {allow: false, reason: typeof value.reason === 'string' ? value.reason : null};
	if (value?.block === false) return {allow: true, reason: null};
	return undefined;
};

test('gate: any block wins and an allow never undoes it; a failing ToolCall gate blocks (fail closed)', async () => {
	const {events} = bus([
		handler('allows', 'ToolCall', () => ({block: false})),
		handler('blocks', 'ToolCall', () => ({block: true, reason: 'no rm'})),
		handler('allows-again', 'ToolCall', () => ({block: false})),
	]);
	assert.deepEqual(await events.gate('ToolCall', {name: 'shell'}, readBlock), {decided: true, allow: false, reason: 'no rm', by: 'blocks'});
	const {events: failing, reports} = bus([
		handler('broken', 'ToolCall', () => {
			throw new Error('bug');
		}),
	]);
	const answer = await failing.gate('ToolCall', {}, readBlock);
	assert.equal(answer.decided && answer.allow, false);
	assert.match(reports[0]!, /extension broken: ToolCall handler failed: bug; the call is blocked/);
});

test('gate: a failing SessionBefore* handler lets the action proceed; ProjectTrust stays undecided', async () => {
	const fails = () => {
		throw new Error('x');
	};
	const {events} = bus([handler('a', 'SessionBeforeFork', fails), handler('b', 'ProjectTrust', fails)]);
	assert.deepEqual(await events.gate('SessionBeforeFork', {}, () => undefined), {decided: false});
	assert.deepEqual(await events.gate('ProjectTrust', {}, () => undefined), {decided: false});
});

test('gate: an answer of the wrong shape counts as a failed handler: ToolCall is blocked, SessionBeforeCompact proceeds, ProjectTrust decides nothing; nothing throws', async () => {
	const {events, reports} = bus([
		handler('odd', 'ToolCall', () => ({block: 'yes'})),
		handler('odd', 'SessionBeforeCompact', () => ({cancel: 'please'})),
		handler('odd', 'ProjectTrust', () => ({trusted: 'yes'})),
	]);
	const blocked = await events.gate('ToolCall', {}, readToolBlock);
	assert.equal(blocked.decided && blocked.allow, false);
	assert.deepEqual(await events.gate('SessionBeforeCompact', {}, readCancel), {decided: false});
	assert.deepEqual(await events.gate('ProjectTrust', {}, readTrustAnswer), {decided: false});
	assert.match(reports[0]!, /extension odd: ToolCall handler answered "block" must be true or false; the call is blocked/);
	assert.match(reports[1]!, /extension odd: SessionBeforeCompact handler answered "cancel" must be true or false; it proceeds/);
	assert.match(reports[2]!, /extension odd: ProjectTrust handler answered "trusted" must be true or false; it decides nothing/);
});

test('withHandlers: a bus with more handlers shares the observe queues, so one extension hears both in order and drained waits for both', async () => {
	const heard: string[] = [];
	let release!: () => void;
	const slow = new Promise<void>(resolve => (release = resolve));
	const first = handler('a', 'UiPromptStart', async (event: any) => {
		await slow;
		heard.push(event.id);
	});
	const {events} = bus([first], 1000);
	const more = events.withHandlers([first, handler('a', 'UiPromptEnd', (event: any) => void heard.push(event.id)), handler('b', 'UiPromptEnd', () => {})]);
	assert.ok(more.has('UiPromptEnd') && !events.has('UiPromptEnd'));
	events.observe('UiPromptStart', {id: 'start'});
	more.observe('UiPromptEnd', {id: 'end'});
	let drained = false;
	const waiting = more.drained().then(() => (drained = true));
	await new Promise(resolve => setTimeout(resolve, 20));
	assert.equal(drained, false, 'the first bus still delivers to a');
	release();
	await waiting;
	assert.deepEqual(heard, ['start', 'end']);
});

test('transform: chained in order, each sees the previous answer; a failure keeps the previous value', async () => {
	const {events, reports} = bus([
		handler('upper', 'Input', (event: any) => ({text: event.text.toUpperCase()})),
		handler('broken', 'Input', () => {
			throw new Error('oops');
		}),
		handler('slow', 'Input', () => new Promise(() => {})),
		handler('unchanged', 'Input', () => ({})),
		handler('suffix', 'Input', (event: any) => ({text: `${event.text}!`})),
	]);
	const read = (answer: unknown, previous: {text: string}) => {
		const text = (answer as {text?: unknown} | undefined)?.text;
		return typeof text === 'string' ? {...previous, text} : undefined;
	};
	assert.deepEqual(await events.transform('Input', {text: 'hi'}, read), {text: 'HI!'});
	assert.equal(reports.length, 2);
});

test('each handler gets its own copy of the payload: changing it changes nothing in the host or for the next handler', async () => {
	const payload = {list: [1]};
	const seen: unknown[] = [];
	const {events} = bus([
		handler('a', 'SessionStart', (event: any) => {
			event.list.push(2);
		}),
		handler('b', 'SessionStart', event => void seen.push(event)),
	]);
	await events.advisory('SessionStart', payload);
	assert.deepEqual(payload, {list: [1]});
	assert.deepEqual(seen, [{list: [1]}]);
});

test('platforms: handlers of an extension declared for other platforms are skipped', async () => {
	const ran: string[] = [];
	const {events} = bus([handler('mac-only', 'SessionStart', () => void ran.push('mac'), ['macos']), handler('linux', 'SessionStart', () => void ran.push('linux'), ['linux', 'windows'])]);
	await events.advisory('SessionStart', {});
	assert.deepEqual(ran, ['linux']);
	assert.equal(events.has('SessionStart'), true);
	assert.equal(events.has('SessionShutdown'), false);
});

test('observe: never awaited by the caller; a hanging handler holds only its own queue', async () => {
	const got: string[] = [];
	const {events, reports} = bus([handler('hangs', 'TurnStart', () => new Promise(() => {})), handler('fast', 'TurnStart', (event: any) => void got.push(event.n))], 50);
	const start = performance.now();
	events.observe('TurnStart', {n: '1'});
	events.observe('TurnStart', {n: '2'});
	assert.ok(performance.now() - start < 20, 'observe returned at once');
	await events.drained();
	assert.deepEqual(got, ['1', '2']);
	assert.match(reports[0]!, /extension hangs: TurnStart handler did not answer within 0.05 s/);
});

test('observe: a queue that falls behind stays bounded; MessageUpdate deltas are merged, not lost', async () => {
	let release: () => void = () => {};
	const gate = new Promise<void>(resolve => {
		release = resolve;
	});
	const deltas: string[] = [];
	const {events} = bus(
		[
			handler('slow', 'MessageUpdate', async (event: any) => {
				await gate;
				deltas.push(event.delta);
			}),
		],
		10_000,
	);
	const total = OBSERVE_QUEUE_LIMIT * 4;
	for (let index = 0; index < total; index++) events.observe('MessageUpdate', {delta: `${index % 10}`});
	release();
	await events.drained();
	// Every character arrived, in order, in far fewer deliveries than events.
	assert.equal(deltas.join(''), Array.from({length: total}, (_value, index) => `${index % 10}`).join(''));
	assert.ok(deltas.length <= OBSERVE_QUEUE_LIMIT + 1, `${deltas.length} deliveries`);
});

test('a class mismatch is a programming error, not a silent no-op', async () => {
	const {events} = bus([]);
	await assert.rejects(events.veto('SessionStart', {}), /SessionStart is an advisory event, not a veto one/);
});
