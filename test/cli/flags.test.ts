import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, unbundledCliPath, type CliRun} from '../helpers/cli.js';
import {helpOutput, helpText} from '../../source/help.js';

const env = {PATH: process.env.PATH};
const packageVersion = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {version: string}).version;

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

function assertUsage(run: CliRun, stderr: string): void {
	assert.equal(run.code, 2, run.stderr);
	assert.equal(run.stdout, '');
	assert.equal(run.stderr, stderr);
}

/** The user's words in the one request a one-shot made. */
async function promptOf(args: string[]): Promise<{run: CliRun; prompt: string}> {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	mock.enqueue({text: 'ok'});
	const before = mock.requests.length;
	const run = await runCli(['-C', box.workspace, ...args], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(mock.requests.length, before + 1);
	const messages = mock.requests[before]!.body.messages as Array<{role: string; content: unknown}>;
	return {run, prompt: String(messages.filter(message => message.role === 'user').at(-1)!.content)};
}

for (const [args, stderr] of [
	[['--jsn'], 'i: unknown flag --jsn (did you mean --json?); see i --help\n'],
	[['--conifg', 'c.json'], 'i: unknown flag --conifg (did you mean --config?); see i --help\n'],
	[['--no-lgo'], 'i: unknown flag --no-lgo (did you mean --no-logo?); see i --help\n'],
	[['--maxSteps', '3'], 'i: unknown flag --maxSteps (did you mean --max-steps?); see i --help\n'],
	[['-json'], 'i: unknown flag -json (did you mean --json?); see i --help\n'],
	[['-P', 'hi'], 'i: unknown flag -P (did you mean -p?); see i --help\n'],
	[['--frobnicate'], 'i: unknown flag --frobnicate; see i --help\n'],
	[['-x'], 'i: unknown flag -x; see i --help\n'],
	// --no- is only for switches.
	[['--no-config'], 'i: unknown flag --no-config (--config takes a value; only a switch has a --no- form); see i --help\n'],
	[['-p', 'hi', '--frobnicate'], 'i: unknown flag --frobnicate; see i --help\n'],
] as const) {
	test(`i ${args.join(' ')}: an unknown flag exits 2 naming it${stderr.includes('did you mean') ? ', with the nearest flag' : ''}`, async () => {
		assertUsage(await runCli([...args], {env}), stderr);
	});
}

for (const [args, stderr] of [
	[['-p', 'hi', '--config'], 'i: --config needs a value; see i --help\n'],
	[['--config', '--json', '-p', 'hi'], 'i: --config needs a value; see i --help\n'],
	[['-p', 'hi', '--cwd='], 'i: --cwd needs a value; see i --help\n'],
	[['-p', 'hi', '--cwd', ''], 'i: --cwd needs a value; see i --help\n'],
	[['-p', 'hi', '-C'], 'i: -C needs a value; see i --help\n'],
	[['-p', 'hi', '--max-steps'], 'i: --max-steps needs a value; see i --help\n'],
	[['-p', 'hi', '--max-steps', 'x'], 'i: --max-steps needs a number (got "x"); see i --help\n'],
	[['-p', 'hi', '--max-steps', '0'], 'i: --max-steps must be a whole number from 1 to 1000 (got 0)\n'],
	[['-p', 'hi', '--max-steps', '1001'], 'i: --max-steps must be a whole number from 1 to 1000 (got 1001)\n'],
	[['-p', 'hi', '--max-steps=2.5'], 'i: --max-steps must be a whole number from 1 to 1000 (got 2.5)\n'],
	[['--json=yes', '-p', 'hi'], 'i: --json takes no value (got --json=yes); see i --help\n'],
] as const) {
	test(`i ${args.join(' ')}: a missing or bad value exits 2 naming the flag`, async () => {
		assertUsage(await runCli([...args], {env}), stderr);
	});
}

test('--max-steps takes 1 and 1000, the ends of its range', async () => {
	for (const steps of ['1', '1000']) {
		const {run} = await promptOf(['-p', 'hi', '--max-steps', steps]);
		assert.equal(run.stdout, 'ok\n');
	}
});

test('a flag that takes one value is refused when given twice, under any of its names; so is a switch', async () => {
	assertUsage(await runCli(['-p', 'hi', '--config', 'a.json', '--config', 'b.json'], {env}), 'i: --config is given twice (--config a.json, --config b.json); give it once; see i --help\n');
	assertUsage(await runCli(['-p', 'hi', '-C', 'a', '--cwd=b'], {env}), 'i: --cwd is given twice (-C a, --cwd b); give it once; see i --help\n');
	assertUsage(await runCli(['--logo', '--no-logo'], {env}), 'i: --logo is given twice (--logo, --no-logo); give it once; see i --help\n');
	assertUsage(await runCli(['-p', 'hi', '--yolo', '--dangerously-skip-permissions'], {env}), 'i: --yolo is given twice (--yolo, --dangerously-skip-permissions); give it once; see i --help\n');
});

test('words without -p are refused with the hint to use -p; a near command name is suggested', async () => {
	assertUsage(await runCli(['explain', 'this'], {env}), 'i: unexpected argument "explain"; to ask one question, use -p "explain this"\n');
	assertUsage(await runCli(['lgo'], {env}), 'i: unexpected argument "lgo" (did you mean i logo?); to ask one question, use -p "lgo"\n');
});

test('-p takes the words that follow as the prompt, even true and false', async () => {
	assert.equal((await promptOf(['-p', 'explain', 'this', 'file'])).prompt, 'explain this file');
	// yargs-parser alone would read these as the value of the switch and lose them.
	assert.equal((await promptOf(['-p', 'true'])).prompt, 'true');
	assert.equal((await promptOf(['--print', 'false', 'alarm'])).prompt, 'false alarm');
	// Flags may stand between the words; numbers stay as typed.
	assert.equal((await promptOf(['-p', 'count', '--yolo', '007'])).prompt, 'count 007');
});

test('--print=TEXT is --print TEXT, even when TEXT starts with a dash', async () => {
	assert.equal((await promptOf(['--print=what is 6 x 7?'])).prompt, 'what is 6 x 7?');
	assert.equal((await promptOf(['--print=-x means what?'])).prompt, '-x means what?');
});

test('-- ends the flags: what follows is prompt, not flags', async () => {
	const {run, prompt} = await promptOf(['-p', '--', '--json', 'is', 'a', 'word', '-C']);
	assert.equal(prompt, '--json is a word -C');
	// Plain output: --json after -- was not read as the flag.
	assert.equal(run.stdout, 'ok\n');
});

test('-C and a cluster of short flags read as getopt reads them', async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	for (const args of [
		['-pC', box.workspace, 'hi'],
		[`-C${box.workspace}`, '-p', 'hi'],
		[`-C=${box.workspace}`, '-p', 'hi'],
	]) {
		mock.enqueue({text: 'ok'});
		const run = await runCli(args, {env: box.env});
		assert.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}`);
		assert.equal(run.stdout, 'ok\n');
	}
});

/** An extension that registers one tool named `name`. */
function toolExtension(name: string): string {
	return `export default function register(api) {
	api.registerTool({name: '${name}', description: 'A tool.', parameters: {type: 'object', properties: {}}, async execute() { return {output: 'ok'}; }});
}
`;
}

test('--extension is repeatable: every one given is loaded, as are --extensions-dir folders', async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	const paths = ['alpha', 'beta'].map(name => join(box.root, `${name}.mjs`));
	for (const path of paths) writeFileSync(path, toolExtension(path.endsWith('alpha.mjs') ? 'alpha' : 'beta'));
	const dirs = ['one', 'two'].map(name => mkdtempSync(join(box.root, `${name}-`)));
	writeFileSync(join(dirs[0]!, 'gamma.mjs'), toolExtension('gamma'));
	writeFileSync(join(dirs[1]!, 'delta.mjs'), toolExtension('delta'));
	mock.enqueue({text: 'ok'});
	const before = mock.requests.length;
	const run = await runCli(['-p', 'hi', '-C', box.workspace, '--extension', paths[0]!, `--extension=${paths[1]}`, '--extensions-dir', dirs[0]!, '--extensions-dir', dirs[1]!], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const offered = (mock.requests[before]!.body.tools as Array<{function: {name: string}}>).map(tool => tool.function.name);
	for (const name of ['alpha', 'beta', 'gamma', 'delta']) assert.ok(offered.includes(name), `${name} in ${offered.join(', ')}`);
	// Each one still needs its value.
	assertUsage(await runCli(['-p', 'hi', '--extension', paths[0]!, '--extension'], {env}), 'i: --extension needs a value; see i --help\n');
});

test('--no-logo and --no-json are accepted switches', async () => {
	const {run} = await promptOf(['-p', 'hi', '--no-logo', '--no-json']);
	assert.equal(run.stdout, 'ok\n');
});

test('--help prints the same text from help.ts alone (the fast path) and with other flags (through meow)', async () => {
	const expected = helpOutput(helpText);
	assert.match(expected, /^i — a terminal coding agent\n/);
	for (const args of [['--help'], ['-h'], ['--json', '--help'], ['-p', 'hi', '-h'], ['--help', '--no-logo']]) {
		const run = await runCli(args, {env});
		assert.equal(run.code, 0, run.stderr);
		assert.equal(run.stderr, '');
		assert.equal(run.stdout, expected, args.join(' '));
	}
});

test('--version prints the package version alone and with other flags', async () => {
	for (const args of [['--version'], ['-v'], ['--json', '--version'], ['-v', '--no-logo']]) {
		const run = await runCli(args, {env});
		assert.equal(run.code, 0, run.stderr);
		assert.equal(run.stdout, `${packageVersion}\n`, args.join(' '));
	}
});

test('the help lists i logo and every flag', async () => {
	const help = (await runCli(['--help'], {env})).stdout;
	assert.match(help, /\$ i logo /);
	for (const flag of [
		'-p, --print',
		'--json',
		'--config',
		'-C, --cwd',
		'--session',
		'--session-name',
		'--max-steps',
		'--yolo',
		'--dangerously-skip-permissions',
		'--no-logo',
		'--extension PATH',
		'--extensions-dir DIR',
		'--no-extensions',
		'--skill DIR',
		'--prompt-template DIR',
		'--trust-project',
		'-v, --version',
		'-h, --help',
	]) {
		assert.ok(help.includes(flag), `help mentions ${flag}`);
	}
});

for (const flags of [['--svg'], ['--plain'], ['--ascii'], []]) {
	test(`i logo ${flags.join(' ')} is byte for byte i --runtime logo ${flags.join(' ')}`, async () => {
		const command = await runCli(['logo', ...flags], {env});
		const runtime = await runCli(['--runtime', 'logo', ...flags], {env});
		assert.equal(command.code, 0, command.stderr);
		assert.ok(command.stdout.length > 0);
		assert.equal(command.stdout, runtime.stdout);
	});
}

test('i logo with a bad flag or an argument exits 2 naming it', async () => {
	assertUsage(await runCli(['logo', '--bogus'], {env}), 'i: logo: unknown flag --bogus; see i --help\n');
	assertUsage(await runCli(['logo', '--sgv'], {env}), 'i: logo: unknown flag --sgv (did you mean --svg?); see i --help\n');
	assertUsage(await runCli(['logo', 'big'], {env}), 'i: logo: unexpected argument "big"; see i --help\n');
	assertUsage(await runCli(['logo', '--svg', '--svg'], {env}), 'i: logo: --svg is given twice (--svg, --svg); give it once; see i --help\n');
	assertUsage(await runCli(['logo', '--svg', '--plain'], {env}), 'i: logo: --svg cannot be combined with --plain or --ascii\n');
});

test('a mistyped --runtime command is named with the nearest one', async () => {
	const run = await runCli(['--runtime', 'lgo'], {env});
	assert.equal(run.code, 2);
	assert.equal(run.stderr, 'i: --runtime needs a command: cache-report, init, logo, manifest, paths, worker (not "lgo"; did you mean logo?)\n');
});

/** The module URLs a run of the unbundled CLI loaded (the bundle is built from the same graph). */
async function modulesLoaded(args: string[]): Promise<string[]> {
	const log = join(mkdtempSync(join(tmpdir(), 'i-flags-')), 'imports.log');
	const recorder = fileURLToPath(new URL('../fixtures/import-recorder.js', import.meta.url));
	const run = await runCli(args, {env: {...env, NODE_OPTIONS: `--import=${recorder}`, I_TEST_IMPORT_LOG: log}, entry: unbundledCliPath});
	assert.equal(run.code, 0, run.stderr);
	return readFileSync(log, 'utf8').split('\n');
}

test('meow is loaded only where flags are parsed: not for --version or --help alone, nor for a worker', async () => {
	const meow = (urls: string[]) => urls.some(url => url.includes('/node_modules/meow/'));
	assert.ok(meow(await modulesLoaded(['--json', '--version'])), 'the recorder sees meow where it is used');
	assert.ok(meow(await modulesLoaded(['logo', '--plain'])));
	for (const args of [['--version'], ['--help'], ['--runtime', 'worker', 'smoke']]) {
		assert.ok(!meow(await modulesLoaded(args)), args.join(' '));
	}
});
