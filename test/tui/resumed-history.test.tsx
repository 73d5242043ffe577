// A resumed session as it looked live (issue 45, point 9): each tool call
// with how it ended (failed, denied, done) whatever kind of tool it was,
// thinking collapsed, and what no one typed never as a person's prompt: a
// context snapshot (memory, skills) and a tool's images hidden, a compaction
// summary as a notice, piped input as a line under the prompt, an extension's
// message by its renderer (hidden with display: false). Through Ink.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {setTimeout as delay} from 'node:timers/promises';
import {render} from 'ink-testing-library';
import {App} from '../../components/App.js';
import {ApprovalBroker} from '../../source/tui/brokers/approval-broker.js';
import {ChatStore} from '../../source/tui/chat-store.js';
import {showSessionHistory} from '../../source/tui/resumed-history.js';
import type {Message} from '../../source/core/messages.js';
import {summaryMessage} from '../../source/core/history/compaction.js';
import {withPipedInput} from '../../source/shared/piped-input.js';

const status = {model: 'm', workspace: '/work', session: 's', usage: null, window: null};

/** The frame a resumed session with `messages` draws. */
async function resumed(messages: Message[]): Promise<string> {
	const store = new ChatStore(status, {logo: false, frameMs: 0});
	const view = render(<App store={store} broker={new ApprovalBroker()} onSubmit={() => {}} onInterrupt={() => {}} onExit={() => {}} />);
	showSessionHistory({messages: [{role: 'system', content: 'the system prompt'}, ...messages], entries: []}, store);
	store.started({});
	await delay(20);
	const frame = view.lastFrame()!;
	view.unmount();
	return frame;
}

/** The rows that show a person's prompt (`› `), the editor's own row left out. */
function prompts(frame: string): string[] {
	return frame.split('\n').filter(row => row.trimStart().startsWith('›') && !row.includes('Ask i anything'));
}

const call = (id: string, name: string, args = '{}') => ({id, type: 'function' as const, function: {name, arguments: args}});

test('a failed call shows ✗ with its error for every kind of tool: native, worker module, MCP, extension', async () => {
	const names = ['read', 'web_fetch', 'mcp__files__read_text', 'todo_add'];
	const frame = await resumed([
		{role: 'user', content: 'try them all'},
		{role: 'assistant', content: null, tool_calls: names.map((name, index) => call(`c${index}`, name, '{"path":"x"}'))},
		...names.map((name, index): Message => ({role: 'tool', tool_call_id: `c${index}`, content: `Error: ${name} broke`, _is_error: true})),
		{role: 'assistant', content: 'all failed'},
	]);
	for (const name of names) {
		assert.match(frame, new RegExp(`✗ ${name} `), frame);
		assert.ok(frame.includes(`Error: ${name} broke`), frame);
	}

	assert.ok(!frame.includes('✓'), frame);
});

test('a call that worked shows ✓ with its result; a denied one ⊘ with the reason, its text not shown as a result', async () => {
	const frame = await resumed([
		{role: 'user', content: 'go'},
		{role: 'assistant', content: null, tool_calls: [call('a', 'read'), call('b', 'write')]},
		{role: 'tool', tool_call_id: 'a', content: 'file body'},
		{role: 'tool', tool_call_id: 'b', content: 'The call was not run: approval was denied. Reason: not that file', _is_error: true},
	]);
	assert.match(frame, /✓ read/);
	assert.ok(frame.includes('file body'));
	assert.match(frame, /⊘ write .*— not that file/);
	assert.ok(!frame.includes('The call was not run'), frame);
});

test('context snapshots (memory, skills) and a tool image message are hidden, never a prompt', async () => {
	const frame = await resumed([
		{role: 'user', content: 'hello'},
		{role: 'user', content: '<context source="memory" kind="full" trust="untrusted">\n{}\n</context>', _context: {source: 'memory', kind: 'full'}} as Message,
		{role: 'user', content: 'Reference data from the skills source', _context: {source: 'skills', kind: 'delta'}} as Message,
		{role: 'assistant', content: null, tool_calls: [call('v', 'view_image')]},
		{role: 'tool', tool_call_id: 'v', content: 'an image'},
		{role: 'user', content: [{type: 'text', text: 'Images from tool call v:'}], _tool_call_id: 'v'},
	]);
	assert.deepEqual(prompts(frame), ['› hello']);
	for (const hidden of ['context source', 'Reference data', 'Images from tool call']) assert.ok(!frame.includes(hidden), frame);
});

test('a compaction summary is a notice, not a prompt', async () => {
	const frame = await resumed([summaryMessage('we fixed the login'), {role: 'user', content: 'next'}]);
	assert.deepEqual(prompts(frame), ['› next']);
	assert.ok(frame.includes('compacted into a summary'), frame);
	assert.ok(!frame.includes('we fixed the login'), frame);
});

test('piped input shows as a line under the prompt the person typed', async () => {
	const frame = await resumed([{role: 'user', content: withPipedInput('Review this', 'diff line one\ndiff line two\n')}]);
	assert.deepEqual(prompts(frame), ['› Review this']);
	assert.ok(frame.includes('with piped input (2 lines)'), frame);
	assert.ok(!frame.includes('diff line one') && !frame.includes('piped-input>'), frame);
});

test("an extension's message shows as its block; with display: false not at all", async () => {
	const frame = await resumed([
		{role: 'user', content: 'shown block', _extension_message: {id: 'm1', extension: 'notes', display: true}} as Message,
		{role: 'user', content: 'never shown', _extension_message: {id: 'm2', extension: 'notes', customType: 'state', display: false}} as Message,
	]);
	assert.deepEqual(prompts(frame), []);
	assert.ok(frame.includes('[notes]') && frame.includes('shown block'), frame);
	assert.ok(!frame.includes('never shown'), frame);
});

test('thinking shows collapsed before the answer, as it did live', async () => {
	const frame = await resumed([
		{role: 'user', content: 'think'},
		{role: 'assistant', content: 'an answer', reasoning_content: 'one\ntwo\nthree'},
		{role: 'assistant', content: 'another', _anthropic_content: [{type: 'thinking', thinking: 'only one', signature: 's'}]},
	]);
	assert.ok(frame.includes('✻ thought (3 lines)'), frame);
	assert.ok(frame.includes('✻ thought (1 line)'), frame);
	assert.ok(frame.indexOf('✻ thought (3 lines)') < frame.indexOf('an answer'));
});
