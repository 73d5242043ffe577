// An MCP tool through the core's whole tool path (runToolCall): before_tool
// replacing the call, the approval gate (asked unless alwaysAllow, --yolo),
// after_tool, the output budget, the image checks, isError, and the
// server's per-call timeout; against the fixture server (the SDK's McpServer).
import {test, after} from 'node:test';
import assert from 'node:assert/strict';
import {getEventListeners} from 'node:events';
import {mkdirSync, mkdtempSync, realpathSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {runToolCall, type ToolCallContext} from '../../source/core/agent/run-tool-call.js';
import {createApprovalGate, type AskPerson} from '../../source/core/agent/approval-gate.js';
import type {CoreEvent} from '../../source/core/events.js';
import type {HookChain} from '../../source/core/lifecycle/hook-chain.js';
import {readMcpConfig} from '../../source/core/mcp/mcp-config.js';
import {McpServers} from '../../source/core/mcp/mcp-servers.js';

const testServer = fileURLToPath(new URL('../fixtures/mcp/test-server.js', import.meta.url));
const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-mcp-path-')));
const opened: McpServers[] = [];
after(async () => Promise.all(opened.map(async servers => servers.close())));

async function fixture(entry: Record<string, unknown> = {}) {
	const configDir = join(root, `config-${opened.length}`);
	mkdirSync(configDir, {recursive: true});
	writeFileSync(join(configDir, 'settings.json'), JSON.stringify({mcpServers: {fx: {command: process.execPath, args: [testServer], ...entry}}}));
	const config = await readMcpConfig({workspace: root, configDir, trusted: false});
	const servers = new McpServers({
		config,
		workspace: root,
		dirs: {config_dir: configDir, data_dir: root, cache_dir: root, runtime_dir: root},
		clientVersion: 'test',
		takenToolNames: new Map(),
		report: () => {},
	});
	opened.push(servers);
	await servers.start();
	return servers;
}

function context(servers: McpServers, overrides: Partial<ToolCallContext> & {askPerson?: AskPerson; yolo?: boolean} = {}): ToolCallContext & {events: CoreEvent[]; asked: string[]} {
	const events: CoreEvent[] = [];
	const asked: string[] = [];
	const askPerson: AskPerson =
		overrides.askPerson ??
		(async request => {
			asked.push(`${request.ask.title} · ${request.owner.replace(/ \(.*\)$/, '')}`);
			return {decision: 'allow', by: 'user', reason: null};
		});
	return {
		tools: new Map(servers.tools().map(tool => [tool.name, tool])),
		gate: createApprovalGate({mode: {current: overrides.yolo === true ? 'bypassPermissions' : 'default'}, askPerson}),
		emit: event => events.push(event),
		workspace: root,
		signal: new AbortController().signal,
		outputLimit: 1000,
		events,
		asked,
		...overrides,
	};
}

const call = (name: string, args: Record<string, unknown> = {}) => ({id: 'c1', type: 'function' as const, function: {name, arguments: JSON.stringify(args)}});

test('asked by default, with the server named; a denial runs nothing; --yolo and alwaysAllow do not ask', async () => {
	const servers = await fixture({alwaysAllow: ['pid']});
	const allowed = context(servers);
	const outcome = await runToolCall(call('mcp__fx__big', {chars: 5}), allowed);
	assert.deepEqual(allowed.asked, ['Run big · MCP server fx']);
	assert.equal(outcome.message.content, 'bbbbb');
	const denied = context(servers, {askPerson: async () => ({decision: 'deny', by: 'user', reason: 'not now'})});
	assert.match((await runToolCall(call('mcp__fx__big', {chars: 5}), denied)).message.content, /approval was denied\. Reason: not now/);
	assert.ok(!denied.events.some(event => event.type === 'tool_started'));
	const yolo = context(servers, {yolo: true});
	await runToolCall(call('mcp__fx__big', {chars: 5}), yolo);
	assert.deepEqual(yolo.asked, []);
	const always = context(servers);
	assert.match((await runToolCall(call('mcp__fx__pid'), always)).message.content, /^\d+$/);
	assert.deepEqual(always.asked, [], 'alwaysAllow');
});

test('the output budget cuts a long result; isError is a tool error; a refused image is an error; after_tool sees the result', async () => {
	const servers = await fixture();
	const big = await runToolCall(call('mcp__fx__big', {chars: 50_000}), context(servers));
	assert.ok(big.message.content.length <= 1000);
	assert.match(big.message.content, /characters truncated/);
	const failed = await runToolCall(call('mcp__fx__fail'), context(servers));
	assert.equal(failed.message._is_error, true);
	assert.equal(failed.message.content, 'Error: the thing is broken');
	const image = await runToolCall(call('mcp__fx__fake-image'), context(servers));
	assert.equal(image.message._is_error, true);
	assert.match(image.message.content, /returned images that were refused/);
	assert.deepEqual(image.images, []);
	const seen: Array<Record<string, unknown>> = [];
	const hooks: HookChain = {
		has: event => event === 'before_tool' || event === 'after_tool',
		async run(event, data) {
			seen.push({event, ...data});
			// before_tool may replace the call: the model asked for 3 characters, the hook makes it 7.
			if (event === 'before_tool') return {...data, arguments: JSON.stringify({chars: 7})};
			return {...data, output: `${String(data.output)} (seen by after_tool)`};
		},
		warnings: () => [],
	};
	const hooked = await runToolCall(call('mcp__fx__big', {chars: 3}), context(servers, {hooks}));
	assert.equal(hooked.message.content, 'bbbbbbb (seen by after_tool)');
	assert.deepEqual(
		seen.map(entry => entry.event),
		['before_tool', 'after_tool'],
	);
});

test('a call over the server’s timeout fails naming it; the server stays for the next call', async () => {
	const servers = await fixture({timeout: 0.3});
	const slow = await runToolCall(call('mcp__fx__slow', {ms: 2000}), context(servers, {yolo: true}));
	assert.equal(slow.message._is_error, true);
	assert.match(slow.message.content, /MCP server fx: slow did not answer within 0.3 s/);
	const quick = await runToolCall(call('mcp__fx__slow', {ms: 1}), context(servers, {yolo: true}));
	assert.equal(quick.message.content, 'after 1 ms');
});

test('wrong arguments are refused by the server’s schema before anything is sent', async () => {
	const servers = await fixture();
	const outcome = await runToolCall(call('mcp__fx__big', {chars: 'many'}), context(servers));
	assert.equal(outcome.message._is_error, true);
	assert.match(outcome.message.content, /mcp__fx__big: chars must be a number/);
});

test('calls leave no listener on the turn’s signal (a long turn makes many)', async () => {
	const servers = await fixture();
	const turn = new AbortController();
	const ctx = context(servers, {yolo: true, signal: turn.signal});
	for (let index = 0; index < 20; index++) assert.equal((await runToolCall(call('mcp__fx__big', {chars: 1}), ctx)).message.content, 'b');
	assert.equal(getEventListeners(turn.signal, 'abort').length, 0);
});
