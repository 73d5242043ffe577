// /context's figures (issue 17 item 6): each part of the next request in the
// budget's own estimate, adding up to what the budget counts for it.
import {test} from 'node:test';
import assert from 'node:assert/strict';
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
	const report = contextReport({messages, systemPrompt: 'unused', tools, instructions: {files, block, inSession: true, enabled: true}, window: {tokens: 1000, source: 'test'}, imageTokens: null});
	const budget = new HistoryMeter().measure(messages, null).tokens.reduce((sum, tokens) => sum + tokens, 0) + measureTools(tools).tokens;
	assert.equal(report.total, budget);
	assert.deepEqual(
		report.rows.map(row => row.label),
		['system prompt', 'AGENTS.md /c/AGENTS.md', 'AGENTS.md /r/AGENTS.md', 'tools (1 schema)', 'memory snapshot (1 message)', 'messages (2)'],
	);
	assert.ok(report.rows.every(row => row.tokens > 0));
	const text = formatContextReport(report);
	assert.match(text, /total\s+[\d,]+\s+[\d.]+%/);
	assert.match(text, /shares of 1,000 tokens: test/);

	const more = contextReport({
		messages: [...messages, {role: 'user', content: 'one more'}],
		systemPrompt: 'unused',
		tools,
		instructions: {files, block, inSession: true, enabled: true},
		window: null,
		imageTokens: null,
	});
	assert.ok(more.total > report.total);
	assert.equal(more.rows.at(-1)!.label, 'messages (3)');
	assert.match(formatContextReport(more), /no context window is known/);
});

test('a new session counts the prompt it will start with; a resumed one whose files changed shows its own block as one part', () => {
	const fresh = contextReport({messages: [], systemPrompt: system, tools: [], instructions: {files, block, inSession: true, enabled: true}, window: null, imageTokens: null});
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
	});
	assert.deepEqual(resumed.rows.map(row => row.label).slice(0, 2), ['system prompt', 'AGENTS.md as this session started (the files changed since; /reload gives it the new ones)']);
	assert.equal(resumed.total, fresh.total);
});
