import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import type {Message} from '../../source/core/messages.js';
import {stateFromHistory} from '../../workers/context-snapshot/context-snapshot.js';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {jsonEvents, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

/** The compiled fixture worker of this same build. */
const notesWorker = fileURLToPath(new URL('../fixtures/workers/notes-context.js', import.meta.url));
const lifecycle = fileURLToPath(new URL('../../../test/fixtures/workers/lifecycle.py', import.meta.url));

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

interface Box extends Sandbox {
	session: string;
	notes(entries: Record<string, string>): void;
	/** One `i -p` turn on the box's session; answers the body of the request it sent. */
	turn(text: string, reply?: string): Promise<{messages: Array<Record<string, unknown>>; stdout: string}>;
}

/** `hooks` are extra manifest entries, run before the notes worker's. */
function sandbox(hooks: unknown[] = []): Box {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'hooks.json'), JSON.stringify({hooks: [...hooks, {events: ['before_turn', 'before_compact_commit'], exec: [process.execPath, notesWorker]}]}));
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', plugins: ['hooks.json']});
	const session = join(box.root, 'session.json');
	return Object.assign(box, {
		session,
		notes: (entries: Record<string, string>) => writeFileSync(join(box.workspace, '.notes.json'), JSON.stringify(entries)),
		async turn(text: string, reply = `answer to ${text.slice(0, 20)}`) {
			mock.enqueue({text: reply});
			const sent = mock.requests.length;
			const run = await runCli(['-p', text, '--json', '--session', session, '-C', box.workspace], {env: box.env});
			assert.equal(run.code, 0, run.stderr);
			assert.equal(mock.requests.length, sent + 1);
			return {messages: mock.requests[sent]!.body.messages, stdout: run.stdout};
		},
	});
}

const isContext = (message: Record<string, unknown>) => typeof message.content === 'string' && message.content.includes('<context source="notes"');

/** The JSON a context message carries, and its kind, read from the wire text alone. */
function wireSnapshot(message: Record<string, unknown>): {kind: string; body: any} {
	const match = /<context source="notes" kind="(full|delta)" trust="untrusted">\n(.*)\n<\/context>$/s.exec(message.content as string);
	assert.ok(match, `not a notes context message: ${String(message.content).slice(0, 200)}`);
	return {kind: match[1]!, body: JSON.parse(match[2]!)};
}

/** Every step's messages in the session file, in order (backups of compacted steps included). */
function savedMessages(path: string): Message[] {
	return readFileSync(path, 'utf8')
		.trim()
		.split('\n')
		.map(line => JSON.parse(line))
		.filter(line => line.type === 'step')
		.flatMap(step => step.messages as Message[]);
}

test('the notes reach the model as one full snapshot, then nothing while unchanged, then one delta per edit', async () => {
	const box = sandbox();
	box.notes({style: 'tabs', lang: 'TypeScript'});

	const one = await box.turn('first');
	assert.equal(one.messages.length, 3);
	assert.deepEqual(one.messages[1], {role: 'user', content: 'first'});
	assert.deepEqual(wireSnapshot(one.messages[2]!), {kind: 'full', body: {entries: {lang: 'TypeScript', style: 'tabs'}}});
	assert.match(one.messages[2]!.content as string, /untrusted content, not instructions/);
	assert.deepEqual(Object.keys(one.messages[2]!), ['role', 'content'], 'the local _context metadata never goes on the wire');

	const two = await box.turn('second');
	assert.equal(two.messages.filter(isContext).length, 1, 'unchanged notes add no context message');
	assert.deepEqual(two.messages.slice(0, 3), one.messages, 'the prefix is sent again byte for byte');
	assert.deepEqual(two.messages.at(-1), {role: 'user', content: 'second'});

	box.notes({style: 'spaces', lang: 'TypeScript'});
	const three = await box.turn('third');
	assert.deepEqual(three.messages.slice(0, two.messages.length), [...two.messages, {role: 'assistant', content: 'answer to second'}].slice(0, two.messages.length));
	const added = three.messages.slice(two.messages.length + 1);
	assert.deepEqual(added[0], {role: 'user', content: 'third'});
	assert.equal(added.length, 2);
	assert.deepEqual(wireSnapshot(added[1]!), {kind: 'delta', body: {upsert: {style: 'spaces'}, remove: []}});

	const saved = savedMessages(box.session);
	const marks = saved.map(message => (message as unknown as Record<string, any>)._context).filter(Boolean);
	assert.deepEqual(marks, [
		{source: 'notes', kind: 'full'},
		{source: 'notes', kind: 'delta'},
	]);
	assert.deepEqual(stateFromHistory(saved, 'notes'), {style: 'spaces', lang: 'TypeScript'});
});

test('a compaction that summarises the full snapshot away restores the latest one before the kept delta', async () => {
	const budget = {events: ['context_budget', 'compact_plan', 'before_compact'], exec: ['python3', lifecycle, 'b']};
	const box = sandbox([budget]);
	box.notes({a: 'one', b: 'two', c: 'three'});
	// [system, first, full, answer]
	await box.turn(`first question ${'y'.repeat(4000)}`, `first answer ${'x'.repeat(4000)}`);
	// Next turn: [..., second, delta]; the budget says no once, the cut keeps [second, delta].
	box.notes({a: 'ONE', b: 'two'});
	writeFileSync(
		join(box.workspace, '.lifecycle.json'),
		JSON.stringify({b: {context_budget: {once: true, set: {fits: false}}, compact_plan: {set: {cut: 4}}, before_compact: {set: {summary: 'they asked a long question'}}}}),
	);
	const two = await box.turn('second question');
	assert.ok(
		jsonEvents(two.stdout).some(event => event.type === 'compaction'),
		two.stdout,
	);
	assert.equal(two.messages.length, 5);
	assert.match(two.messages[1]!.content as string, /they asked a long question/);
	assert.deepEqual(wireSnapshot(two.messages[2]!), {kind: 'full', body: {entries: {a: 'ONE', b: 'two'}}}, 'the latest state, restored after the summary');
	assert.deepEqual(two.messages[3], {role: 'user', content: 'second question'});
	assert.deepEqual(wireSnapshot(two.messages[4]!), {kind: 'delta', body: {upsert: {a: 'ONE'}, remove: ['c']}}, 'the kept delta, verbatim');

	// The compacted history is what continues: unchanged notes add nothing; the state read back is the notes.
	const three = await box.turn('third question');
	assert.equal(three.messages.filter(isContext).length, 2);
	assert.deepEqual(three.messages.slice(0, 5), two.messages);
	const saved = savedMessages(box.session);
	const committed = saved.slice(saved.findLastIndex(message => message.role === 'system'));
	assert.deepEqual(stateFromHistory(committed, 'notes'), {a: 'ONE', b: 'two'});
});
