// The extension host's costs (issue 14's benchmark), as a user meets them:
// whole `i -p` processes against the mock model, medians of RUNS runs
// measured alternately in the same run.
// - A tool call: the same work (read a small file, return its text) as the
//   native `read`, as an extension tool and as an NDJSON worker tool. Per
//   call: the run with CALLS calls (one per model step) less the run with
//   none, over CALLS; the model's own steps cost the same in each.
// - Start-up with 0, 5 and 20 extensions (each registers a tool and an
//   event handler) on the command line.
// - The stream's CPU (the process's, user + system) for an answer of
//   STREAM_TOKENS deltas, with an extension observing every MessageUpdate
//   against none.
// - Time to the first delta on stdout through an extension provider (the
//   streaming example over a local OpenAI-compatible server) against the
//   built-in openai adapter over the same server: from the spawn, and from
//   the request reaching the server.
import {spawn} from 'node:child_process';
import {mkdirSync, mkdtempSync, realpathSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider, type MockReply} from '../test/fixtures/mock-provider.js';
import {median, timeCommandCpu} from './measure.js';
import {done, finishChunk, startGateServer, textChunk, type GateServer} from '../test/fixtures/gate-server.js';

const RUNS = Math.max(10, Number(process.env.BENCH_RUNS ?? 15));
const CALLS = 10;
const STREAM_TOKENS = 20_000;
const cli = fileURLToPath(new URL('../../bin/i.js', import.meta.url));
const providerExample = fileURLToPath(new URL('../../examples/extension-provider', import.meta.url));
const node = process.execPath;

const readExtension = `import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
export default function register(api) {
	api.registerTool({
		name: 'ext_read',
		description: 'Read a file of the workspace',
		parameters: {type: 'object', properties: {path: {type: 'string'}}, required: ['path']},
		async execute(params) {
			return {output: await readFile(join(params.__i?.cwd ?? '.', params.path), 'utf8')};
		},
	});
}
`;

// The worker tool: plain JavaScript with no imports beyond node's, so it starts as fast as node itself.
const readWorker = `const {readFileSync} = require('node:fs');
const {join} = require('node:path');
let pending = '';
process.stdin.setEncoding('utf8').on('data', chunk => {
	pending += chunk;
	for (let newline = pending.indexOf('\\n'); newline !== -1; newline = pending.indexOf('\\n')) {
		const {id, data, workspace} = JSON.parse(pending.slice(0, newline));
		pending = pending.slice(newline + 1);
		const output = readFileSync(join(workspace ?? process.cwd(), data.arguments.path), 'utf8');
		process.stdout.write(JSON.stringify({id, data: {output}}) + '\\n');
	}
});
`;

const observer = `export default function register(api) {
	let deltas = 0;
	api.registerEventHandler('MessageUpdate', () => {
		deltas++;
	});
	api.registerEventHandler('AgentEnd', () => {
		if (deltas === 0) process.stderr.write('the observer saw no MessageUpdate\\n');
	});
}
`;

function numberedExtension(index: number): string {
	return `export default function register(api) {
	api.registerTool({
		name: 'tool_${index}',
		description: 'Tool number ${index}',
		parameters: {type: 'object', properties: {}},
		execute: () => ({output: '${index}'}),
	});
	api.registerEventHandler('TurnEnd', () => {});
}
`;
}

/** One SSE body of `tokens` content deltas, each its own event, as a model streams them. */
function streamBody(tokens: number): string {
	const event = (delta: Record<string, unknown>, finish: string | null = null) =>
		`data: ${JSON.stringify({id: 'bench', object: 'chat.completion.chunk', created: 0, model: 'bench', choices: [{index: 0, delta, finish_reason: finish}]})}\n\n`;
	let body = event({role: 'assistant', content: ''});
	for (let token = 0; token < tokens; token++) body += event({content: token % 16 === 15 ? 'word\n' : 'word '});
	return `${body}${event({}, 'stop')}data: [DONE]\n\n`;
}

export async function benchExtensions(): Promise<void> {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-bench-extensions-')));
	const mock = await startMockProvider();
	const workspace = join(root, 'workspace');
	const config = join(root, 'config');
	mkdirSync(workspace, {recursive: true});
	mkdirSync(config, {recursive: true});
	writeFileSync(join(workspace, 'note.txt'), 'A short note the tools read.\n');
	writeFileSync(join(config, 'config.json'), JSON.stringify({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'bench', api_key_env: 'BENCH_KEY'}));
	const worker = join(root, 'read-worker.cjs');
	writeFileSync(worker, readWorker);
	const parameters = {type: 'object', properties: {path: {type: 'string'}}, required: ['path']};
	writeFileSync(join(config, 'hooks.json'), JSON.stringify({hooks: [], tools: [{name: 'worker_read', description: 'Read a file of the workspace', parameters, exec: [node, worker]}]}));
	const extensionFile = join(root, 'read-extension.mjs');
	writeFileSync(extensionFile, readExtension);
	const observerFile = join(root, 'observer.mjs');
	writeFileSync(observerFile, observer);
	const many = Array.from({length: 20}, (_, index) => {
		const file = join(root, `extension-${index}.mjs`);
		writeFileSync(file, numberedExtension(index));
		return file;
	});
	const env = {PATH: process.env.PATH, HOME: root, I_CONFIG_DIR: config, I_DATA_DIR: join(root, 'data'), I_CACHE_DIR: join(root, 'cache'), I_RUNTIME_DIR: join(root, 'runtime'), BENCH_KEY: 'k'};
	const run = async (replies: MockReply[], extra: string[]) => {
		mock.enqueue(...replies);
		return timeCommandCpu(node, [cli, '-p', 'Read the note', '-C', workspace, '--yolo', ...extra], {env});
	};

	const toolTurn = (name: string, calls: number): MockReply[] => [
		...Array.from({length: calls}, (_, call) => ({toolCalls: [{id: `call_${call}`, name, arguments: JSON.stringify(name === 'read' ? {files: [{path: 'note.txt'}]} : {path: 'note.txt'})}]})),
		{text: 'Read it.'},
	];
	const tools = [
		['native read', 'read'],
		['extension tool', 'ext_read'],
		['NDJSON worker tool', 'worker_read'],
	] as const;
	const withExtension = ['--extension', extensionFile];
	const figures = {none: [] as number[], ...Object.fromEntries(tools.map(([label]) => [label, [] as number[]]))} as Record<string, number[]>;
	const startup: Record<number, Array<{wallMs: number; cpuMs: number}>> = {0: [], 5: [], 20: []};
	const stream = {without: [] as number[], with: [] as number[]};
	const body = streamBody(STREAM_TOKENS);

	// Once each before measuring: the file cache, the compile cache.
	await run(toolTurn('ext_read', 1), withExtension);
	await run(toolTurn('worker_read', 1), withExtension);
	for (let round = 0; round < RUNS; round++) {
		figures.none!.push((await run([{text: 'Read it.'}], withExtension)).wallMs);
		for (const [label, name] of tools) figures[label]!.push((await run(toolTurn(name, CALLS), withExtension)).wallMs);
		for (const count of [0, 5, 20] as const)
			startup[count]!.push(
				await run(
					[{text: 'Hello.'}],
					many.slice(0, count).flatMap(file => ['--extension', file]),
				),
			);
		stream.without.push((await run([{raw: body}], [])).cpuMs);
		stream.with.push((await run([{raw: body}], ['--extension', observerFile])).cpuMs);
	}

	await mock.close();
	const perCall = (label: string) => (median(figures[label]!) - median(figures.none!)) / CALLS;
	const native = perCall('native read');
	console.log('');
	console.log(`extensions (issue 14): whole \`i -p\` runs against the mock, medians of ${RUNS}`);
	console.log('');
	console.log(`| a tool call (read a small file; ${CALLS} calls, one per model step, less a run with none) | ms per call | × native |`);
	console.log('|---|---:|---:|');
	for (const [label] of tools) console.log(`| ${label} | ${perCall(label).toFixed(2)} | ${(perCall(label) / native).toFixed(2)}× |`);
	console.log('');
	const start = (count: number) => median(startup[count]!.map(figure => figure.wallMs));
	const startCpu = (count: number) => median(startup[count]!.map(figure => figure.cpuMs));
	console.log('| start-up, `i -p` | wall ms | CPU ms | wall × no extensions |');
	console.log('|---|---:|---:|---:|');
	for (const count of [0, 5, 20]) console.log(`| ${count} extensions | ${start(count).toFixed(1)} | ${startCpu(count).toFixed(0)} | ${(start(count) / start(0)).toFixed(2)}× |`);
	console.log('');
	const cpuWithout = median(stream.without);
	const cpuWith = median(stream.with);
	console.log(`| stream of ${STREAM_TOKENS} deltas, process CPU | ms | × no observer |`);
	console.log('|---|---:|---:|');
	console.log(`| no extension | ${cpuWithout.toFixed(0)} | 1.00× |`);
	console.log(`| an extension observing every MessageUpdate | ${cpuWith.toFixed(0)} | ${(cpuWith / cpuWithout).toFixed(2)}× |`);
	await benchFirstDelta(root, env);
}

/**
 * One `i -p` whose reply's first delta the server sends as soon as the
 * request arrives: when the first byte of the answer reached stdout, from
 * the spawn and from the request's arrival at the server.
 */
async function firstDelta(server: GateServer, args: string[], env: NodeJS.ProcessEnv): Promise<{fromSpawn: number; fromRequest: number}> {
	const requests = server.requests.length;
	server.enqueue({parts: [textChunk('first'), textChunk(' and the rest'), finishChunk(), done]});
	const started = performance.now();
	let shownAt: number | undefined;
	const child = spawn(node, [cli, ...args], {env, stdio: ['ignore', 'pipe', 'pipe']});
	child.stdout.on('data', () => (shownAt ??= performance.now()));
	child.stderr.resume();
	const code = await new Promise<number | null>(resolve => child.on('close', resolve));
	if (code !== 0 || shownAt === undefined) throw new Error(`i ${args.join(' ')} exited ${code} without an answer`);
	const arrived = server.requests[requests]!.arrivedAt;
	return {fromSpawn: shownAt - started, fromRequest: shownAt - arrived};
}

async function benchFirstDelta(root: string, env: NodeJS.ProcessEnv): Promise<void> {
	const server = await startGateServer();
	const configs = join(root, 'first-delta');
	mkdirSync(configs, {recursive: true});
	const builtin = join(configs, 'builtin.json');
	const extension = join(configs, 'extension.json');
	writeFileSync(builtin, JSON.stringify({protocol: 'openai', base_url: server.baseUrl, model: 'bench', api_key_env: 'BENCH_KEY'}));
	writeFileSync(extension, JSON.stringify({protocol: 'local-openai', model: 'bench'}));
	const withServer = {...env, LOCAL_OPENAI_BASE_URL: server.baseUrl};
	const ways = [
		['built-in openai adapter', ['-p', 'Hello', '--config', builtin]],
		['extension provider (examples/extension-provider)', ['-p', 'Hello', '--config', extension, '--extension', providerExample]],
	] as const;
	const figures = new Map(ways.map(([label]) => [label, {fromSpawn: [] as number[], fromRequest: [] as number[]}]));
	for (const [, args] of ways) await firstDelta(server, [...args], withServer);
	for (let round = 0; round < RUNS; round++) {
		for (const [label, args] of ways) {
			const figure = await firstDelta(server, [...args], withServer);
			figures.get(label)!.fromSpawn.push(figure.fromSpawn);
			figures.get(label)!.fromRequest.push(figure.fromRequest);
		}
	}

	await server.close();
	const base = figures.get(ways[0][0])!;
	console.log('');
	console.log(`| time to the first delta on stdout, \`i -p\` over the same local server (medians of ${RUNS}) | from spawn, ms | × built-in | from the request's arrival, ms | × built-in |`);
	console.log('|---|---:|---:|---:|---:|');
	for (const [label] of ways) {
		const {fromSpawn, fromRequest} = figures.get(label)!;
		console.log(
			`| ${label} | ${median(fromSpawn).toFixed(1)} | ${(median(fromSpawn) / median(base.fromSpawn)).toFixed(2)}× | ${median(fromRequest).toFixed(2)} | ${(median(fromRequest) / median(base.fromRequest)).toFixed(2)}× |`,
		);
	}
}
