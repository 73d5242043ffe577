// MCP servers (issue 18's benchmark):
// - Start-up of a one-shot `i -p` against the mock model with 3 configured
//   stdio servers (server-everything, whose tools the turn does not use)
//   against none: whole processes, medians of RUNS runs measured alternately.
//   The servers start in the background, so the turn must not wait for them.
// - A tool call's cost: the same work (read a small file, return its text)
//   as the native `read` tool and as an MCP server's tool over stdio (the
//   tool path's plan and run: the JSON Schema check, the JSON-RPC round trip
//   through the SDK, the result mapped), in one process, per call over CALLS
//   calls after a warm-up.
import {mkdirSync, mkdtempSync, realpathSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider} from '../test/fixtures/mock-provider.js';
import {median, timeAsync, timeCommand} from './measure.js';
import {readMcpConfig} from '../source/core/mcp/mcp-config.js';
import {McpServers} from '../source/core/mcp/mcp-servers.js';
import {createReadTool} from '../source/core/tools/read.js';
import type {Tool, ToolContext} from '../source/core/tools/types.js';

const RUNS = Math.max(10, Number(process.env.BENCH_RUNS ?? 15));
const CALLS = 300;
const cli = fileURLToPath(new URL('../../bin/i.js', import.meta.url));
const everythingServer = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
const testServer = fileURLToPath(new URL('../test/fixtures/mcp/test-server.js', import.meta.url));
const node = process.execPath;

export async function benchMcp(): Promise<void> {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-bench-mcp-')));
	const mock = await startMockProvider();
	const workspace = join(root, 'workspace');
	mkdirSync(workspace, {recursive: true});
	const note = join(workspace, 'note.txt');
	writeFileSync(note, 'A short note the tools read.\n');
	const folders = (name: string) => {
		const config = join(root, name);
		mkdirSync(config, {recursive: true});
		writeFileSync(join(config, 'config.json'), JSON.stringify({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'bench', api_key_env: 'BENCH_KEY'}));
		return {PATH: process.env.PATH, HOME: root, I_CONFIG_DIR: config, I_DATA_DIR: join(root, 'data'), I_CACHE_DIR: join(root, 'cache'), I_RUNTIME_DIR: join(root, 'runtime'), BENCH_KEY: 'k'};
	};

	const none = folders('none');
	const three = folders('three');
	const server = {command: node, args: [everythingServer, 'stdio']};
	writeFileSync(join(three.I_CONFIG_DIR, 'settings.json'), JSON.stringify({mcpServers: {one: server, two: server, three: server}}));
	const answer = {text: 'The answer is 42.', usage: {input: 20, output: 6}};
	const oneShot = async (env: NodeJS.ProcessEnv) => {
		mock.enqueue(answer);
		return timeCommand(node, [cli, '-p', 'What is the answer?', '-C', workspace], {env});
	};

	await oneShot(none);
	await oneShot(three);
	const withNone: number[] = [];
	const withThree: number[] = [];
	for (let run = 0; run < RUNS; run++) {
		withNone.push(await oneShot(none));
		withThree.push(await oneShot(three));
	}

	await mock.close();

	// The tool calls, in this process.
	const dirs = {config_dir: three.I_CONFIG_DIR, data_dir: three.I_DATA_DIR, cache_dir: three.I_CACHE_DIR, runtime_dir: three.I_RUNTIME_DIR};
	const callConfig = join(root, 'calls');
	mkdirSync(callConfig);
	writeFileSync(join(callConfig, 'settings.json'), JSON.stringify({mcpServers: {bench: {command: node, args: [testServer], alwaysAllow: ['read_file']}}}));
	const config = await readMcpConfig({workspace, configDir: callConfig, trusted: false});
	const servers = new McpServers({config, workspace, dirs, clientVersion: 'bench', takenToolNames: new Map(), report: message => console.error(message)});
	await servers.start();
	const mcpRead = servers.tools().find(tool => tool.name === 'mcp__bench__read_file');
	if (!mcpRead) throw new Error('the benchmark server offers no read_file');
	const context: ToolContext = {workspace, signal: new AbortController().signal, outputLimit: 100_000};
	const perCall = async (tool: Tool, args: Record<string, unknown>) => {
		const once = async () => {
			await (await tool.plan(args, context)).run();
		};

		for (let warm = 0; warm < 20; warm++) await once();
		const times: number[] = [];
		for (let call = 0; call < CALLS; call++) times.push(await timeAsync(once));
		return median(times);
	};

	const native = await perCall(createReadTool(), {files: [{path: 'note.txt'}]});
	const mcp = await perCall(mcpRead, {path: note});
	await servers.close();

	console.log('');
	console.log(`MCP servers (issue 18): one-shots as whole \`i -p\` runs against the mock, medians of ${RUNS}; tool calls in one process, medians of ${CALLS}`);
	console.log('');
	console.log('| start-up, `i -p` (a turn that uses no MCP tool) | wall ms | × no servers |');
	console.log('|---|---:|---:|');
	console.log(`| no MCP servers | ${median(withNone).toFixed(1)} | 1.00× |`);
	console.log(`| 3 stdio servers (server-everything) configured | ${median(withThree).toFixed(1)} | ${(median(withThree) / median(withNone)).toFixed(2)}× |`);
	console.log('');
	console.log('| a tool call (read a small file) | ms per call | × native |');
	console.log('|---|---:|---:|');
	console.log(`| native read | ${native.toFixed(3)} | 1.00× |`);
	console.log(`| MCP tool over stdio (plan, schema check, JSON-RPC round trip, result mapped) | ${mcp.toFixed(3)} | ${(mcp / native).toFixed(2)}× |`);
	console.log(`MCP overhead per call: ${(mcp - native).toFixed(3)} ms`);
}
