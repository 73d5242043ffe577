// The tools a model request offers are capped at MAX_OFFERED_TOOLS (issue 47
// point 11): the built CLI against the mock provider, with an extension
// that registers as many tools as FLOOD_COUNT says; at the cap every tool
// is offered and nothing is said, one past it the last is left out with a
// warning naming its extension, and 10,000 make a request of 128.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, writeExtensionFile} from '../helpers/cli.js';
import {MAX_OFFERED_TOOLS} from '../../source/core/agent/offered-tools.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const floodExtension = `export default function register(api) {
	const count = Number(process.env.FLOOD_COUNT);
	for (let index = 1; index <= count; index++) {
		api.registerTool({name: 'flood_' + index, description: 'Flood tool ' + index + '.', parameters: {type: 'object'}, execute: () => ({output: 'flooded ' + index + ' of ' + api.runtime.getExecutionContext().tools.length})});
	}
}
`;

async function runWith(count: number, calls: string[] = []) {
	const sandbox = makeSandbox();
	sandbox.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	const file = writeExtensionFile(sandbox, 'flood.mjs', floodExtension);
	const before = mock.requests.length;
	mock.enqueue(...calls.map((name, index) => ({toolCalls: [{id: `c${index}`, name, arguments: '{}'}]})), {text: 'Done.'});
	const run = await runCli(['-p', 'go', '--json', '--yolo', '--extension', file, '-C', sandbox.workspace], {env: {...sandbox.env, FLOOD_COUNT: String(count)}, timeoutMs: 60_000});
	assert.equal(run.code, 0, run.stderr);
	const requests = mock.requests.slice(before);
	const names = (index: number) => (requests[index]!.body.tools as Array<{function: {name: string}}>).map(tool => tool.function.name);
	return {
		run,
		file,
		requests,
		names,
		events: run.stdout
			.split('\n')
			.filter(Boolean)
			.map(line => JSON.parse(line) as Record<string, any>),
	};
}

const capWarnings = (events: Array<Record<string, any>>) => events.filter(event => event.type === 'warning' && String(event.message).includes('MAX_OFFERED_TOOLS'));

test(`at ${MAX_OFFERED_TOOLS} tools every one is offered and nothing is said; one past it the last is left out, named with its extension`, {timeout: 120_000}, async () => {
	const base = (await runWith(0)).names(0).length;
	assert.ok(base > 0 && base < MAX_OFFERED_TOOLS, `the run offers ${base} tools of its own`);

	const room = MAX_OFFERED_TOOLS - base;
	const at = await runWith(room, [`flood_${room}`]);
	assert.equal(at.names(0).length, MAX_OFFERED_TOOLS);
	assert.equal(at.names(0).at(-1), `flood_${room}`);
	assert.deepEqual(capWarnings(at.events), []);
	assert.equal(at.events.find(event => event.type === 'tool_result')?.output, `flooded ${room} of ${MAX_OFFERED_TOOLS}`);

	// One past: the last tool is neither offered nor run, and the warning says whose it is.
	const past = await runWith(room + 1, [`flood_${room + 1}`, 'flood_1']);
	assert.equal(past.names(0).length, MAX_OFFERED_TOOLS);
	assert.ok(!past.names(0).includes(`flood_${room + 1}`));
	const warnings = capWarnings(past.events);
	assert.equal(warnings.length, 1, 'said once in the turn, not at each request');
	assert.equal(
		warnings[0]!.message,
		`${MAX_OFFERED_TOOLS + 1} tools are registered, and a model request offers at most ${MAX_OFFERED_TOOLS} (MAX_OFFERED_TOOLS); the model is not offered the last 1: 1 of extension flood (${past.file})`,
	);
	const [result, offered] = past.events.filter(event => event.type === 'tool_result');
	assert.equal(result!.is_error, true);
	assert.match(result!.output, new RegExp(`flood_${room + 1}`));
	// getExecutionContext names the tools the model is offered: the capped list.
	assert.equal(offered!.output, `flooded 1 of ${MAX_OFFERED_TOOLS}`);
});

test('10,000 extension tools: each request offers 128, and -p says so on stderr naming the extension', {timeout: 120_000}, async () => {
	const sandbox = makeSandbox();
	sandbox.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	const file = writeExtensionFile(sandbox, 'flood.mjs', floodExtension);
	const before = mock.requests.length;
	mock.enqueue({text: 'Done.'});
	const run = await runCli(['-p', 'go', '--extension', file, '-C', sandbox.workspace], {env: {...sandbox.env, FLOOD_COUNT: '10000'}, timeoutMs: 60_000});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'Done.\n');
	const request = mock.requests[before]!;
	assert.equal(request.body.tools.length, MAX_OFFERED_TOOLS);
	assert.ok(JSON.stringify(request.body).length < 64 * 1024, `the request is ${JSON.stringify(request.body).length} bytes`);
	assert.match(
		run.stderr,
		new RegExp(
			`i: warning: \\d+ tools are registered, and a model request offers at most ${MAX_OFFERED_TOOLS} \\(MAX_OFFERED_TOOLS\\); the model is not offered the last \\d+: \\d+ of extension flood \\(${file.replaceAll('.', '\\.')}\\)\\n`,
		),
	);
});
