// An MCP server's `readOnlyHint` through a whole turn: the calls of a tool the
// server annotates `readOnlyHint: true` run side by side in the model's batch,
// those of one annotated `false` one at a time (source/core/agent/tool-batch.ts);
// against the fixture server (the SDK's McpServer, test/fixtures/mcp/test-server.ts).
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {readMcpConfig} from '../../source/core/mcp/mcp-config.js';
import {McpServers} from '../../source/core/mcp/mcp-servers.js';
import {scriptedAgent} from '../fixtures/scripted-agent.js';

const testServer = fileURLToPath(new URL('../fixtures/mcp/test-server.js', import.meta.url));

test('readOnlyHint true: the calls run side by side; false: one at a time; results in call order', async () => {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-mcp-read-only-')));
	const configDir = join(root, 'config');
	mkdirSync(configDir);
	writeFileSync(join(configDir, 'settings.json'), JSON.stringify({mcpServers: {fx: {command: process.execPath, args: [testServer]}}}));
	const servers = new McpServers({
		config: await readMcpConfig({workspace: root, configDir, trusted: false}),
		workspace: root,
		dirs: {config_dir: configDir, data_dir: root, cache_dir: root, runtime_dir: root},
		clientVersion: 'test',
		takenToolNames: new Map(),
		report: () => {},
	});
	try {
		await servers.start();
		const tools = servers.tools().filter(tool => tool.name.endsWith('_slowly'));
		assert.deepEqual(tools.map(tool => tool.name).sort(), ['mcp__fx__look_slowly', 'mcp__fx__work_slowly']);
		// The first call of each pair takes longer: side by side, the second still starts before the first ends.
		const call = (id: string, tool: string, ms: number) => ({id, name: `mcp__fx__${tool}`, arguments: {ms}});
		const batch = [call('l1', 'look_slowly', 100), call('l2', 'look_slowly', 0), call('w1', 'work_slowly', 100), call('w2', 'work_slowly', 0)];
		const run = await scriptedAgent({replies: [{toolCalls: batch}, {text: 'Done.'}], tools, yolo: true});
		try {
			assert.equal((await run.agent.runTurn('look and work', new AbortController().signal)).reason, 'stop');
			assert.deepEqual(
				run.events.flatMap(event => (event.type === 'tool_started' || event.type === 'tool_result' ? [`${event.type} ${event.id}`] : [])),
				['tool_started l1', 'tool_started l2', 'tool_result l1', 'tool_result l2', 'tool_started w1', 'tool_result w1', 'tool_started w2', 'tool_result w2'],
			);
			assert.deepEqual(
				run.model.requests[1]!.messages.slice(-4).map(message => (message.role === 'tool' ? message.content : '')),
				['look_slowly after 100 ms', 'look_slowly after 0 ms', 'work_slowly after 100 ms', 'work_slowly after 0 ms'],
			);
		} finally {
			await run.close();
		}
	} finally {
		await servers.close();
		rmSync(root, {recursive: true, force: true});
	}
});
