// /context's figures (issue 17 item 6): each part of the next request in the
// budget's own estimate, adding up to what the budget counts for it.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {anchoredTokens} from '../../workers/budget/budget-estimate.js';
import {HistoryMeter, measureTools} from '../../workers/budget/history-meter.js';
import {renderInstructionsBlock, withInstructions} from '../../source/core/resources/instructions-block.js';
import {contextReport, formatContextReport} from '../../source/tui/commands/context-report.js';
import type {Message} from '../../source/core/messages.js';

const files = [
	{path: '/c/AGENTS.md', scope: 'global' as const, text: 'global "quoted"\n', bytes: 17, cut: false},
	{path: '/r/AGENTS.md', scope: 'project' as const, text: '你好 rule\n', bytes: 12, cut: false},
];
const block = renderInstructionsBlock(files);
const system = withInstructions('You are i.', block);
const tools = [{name: 'read', description: 'Read a file', parameters: {type: 'object', properties: {path: {type: 'string'}}}}];

test('the parts add up to the budget’s estimate of the request; snapshots are counted apart from the conversation', () => {
	const messages: Message[] = [
		{role: 'system', content: system},
		{role: 'user', content: 'hello'},
		{role: 'user', content: '<context source="memory">…</context>', _context: {source: 'memory', kind: 'full'}} as Message,
		{role: 'assistant', content: 'hi there'},
	];
	const report = contextReport({
		messages,
		systemPrompt: 'unused',
		tools,
		instructions: {files, block, inSession: true, enabled: true},
		window: {tokens: 1000, source: 'test'},
		imageTokens: null,
		anchor: null,
		model: 'm',
	});
	const budget = new HistoryMeter().measure(messages, null).tokens.reduce((sum, tokens) => sum + tokens, 0) + measureTools(tools).tokens;
	assert.equal(report.total, budget);
	assert.deepEqual(
		report.rows.map(row => row.label),
		['system prompt', 'AGENTS.md /c/AGENTS.md', 'AGENTS.md /r/AGENTS.md', 'tools (1 schema)', 'memory snapshot (1 message)', 'messages (2)'],
	);
	assert.ok(report.rows.every(row => row.tokens > 0));
	const text = formatContextReport(report);
	assert.match(text, /total \(bytes\)\s+[\d,]+\s+[\d.]+%/);
	assert.match(text, /In the provider's tokens: not known \(no request of this session has been answered in this run yet\); the budget counts the bytes above, an upper bound\./);
	assert.match(text, /shares of 1,000 tokens: test/);

	const more = contextReport({
		messages: [...messages, {role: 'user', content: 'one more'}],
		systemPrompt: 'unused',
		tools,
		instructions: {files, block, inSession: true, enabled: true},
		window: null,
		imageTokens: null,
		anchor: null,
		model: 'm',
	});
	assert.ok(more.total > report.total);
	assert.equal(more.rows.at(-1)!.label, 'messages (3)');
	assert.match(formatContextReport(more), /no context window is known/);
});

test('a new session counts the prompt it will start with; a resumed one whose files changed shows its own block as one part', () => {
	const fresh = contextReport({messages: [], systemPrompt: system, tools: [], instructions: {files, block, inSession: true, enabled: true}, window: null, imageTokens: null, anchor: null, model: 'm'});
	assert.equal(fresh.total, new HistoryMeter().measure([{role: 'system', content: system}], null).tokens[0]);
	assert.equal(fresh.rows.at(-1)!.label, 'messages (0)');

	const other = renderInstructionsBlock([{...files[1]!, text: 'changed\n'}]);
	const resumed = contextReport({
		messages: [{role: 'system', content: system}],
		systemPrompt: '',
		tools: [],
		instructions: {files: [{...files[1]!, text: 'changed\n'}], block: other, inSession: false, enabled: true},
		window: null,
		imageTokens: null,
		anchor: null,
		model: 'm',
	});
	assert.deepEqual(resumed.rows.map(row => row.label).slice(0, 2), ['system prompt', 'AGENTS.md as this session started (the files changed since; /reload gives it the new ones)']);
	assert.equal(resumed.total, fresh.total);
});

test('with the provider’s count of the last request, the figure in its tokens is anchored as the budget anchors it', () => {
	const messages: Message[] = [
		{role: 'system', content: system},
		{role: 'user', content: 'hello '.repeat(500)},
		{role: 'assistant', content: 'hi there'},
		{role: 'user', content: 'and then?'},
	];
	const anchor = {model: 'm', input: 900, output: 12, request_messages: 2};
	const report = contextReport({
		messages,
		systemPrompt: 'unused',
		tools,
		instructions: {files, block, inSession: true, enabled: true},
		window: {tokens: 100_000, source: 'test'},
		imageTokens: null,
		anchor,
		model: 'm',
	});
	// The budget's rule, shared: the count, then each message after the answer at its bytes and framing.
	const measured = new HistoryMeter().measure(messages, null).tokens;
	assert.deepEqual(report.counted, {tokens: anchoredTokens(measured, anchor), input: 900, output: 12, since: 1});
	assert.ok(anchoredTokens(measured, anchor) < report.total, 'far below the byte count of the long message');
	assert.match(
		formatContextReport(report),
		/In the provider's tokens: [\d,]+ \([\d.]+%\), as the budget counts it: the provider's count of the last request \(900 in, 12 out\) and the bytes of 1 message since\./,
	);

	// Another model's count, or one whose request this history does not extend, is not used; the notice says why.
	const other = contextReport({messages, systemPrompt: 'unused', tools, instructions: {files, block, inSession: true, enabled: true}, window: null, imageTokens: null, anchor, model: 'other'});
	assert.match(formatContextReport(other), /not known \(the last count cannot be used: the usage is for model "m", not "other"\)/);
});
