// Command-line flags an extension adds (registerFlag, api.runtime.getCliFlag;
// spec/extensions.md §3, §5; issue 14 item 6), end to end
// through the built CLI against the mock provider.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/** An extension adding --greeting TEXT and --shout, which writes what getCliFlag reads, during register and at the first turn, to a log. */
const greeter = `
	import {appendFileSync} from 'node:fs';
	export default function register(api) {
		api.registerFlag('greeting', {type: 'string', default: 'hello', description: 'What to greet with'});
		api.registerFlag('shout', {type: 'boolean', default: false, description: 'Greet loudly'});
		const read = () => ({greeting: api.runtime.getCliFlag('greeting'), shout: api.runtime.getCliFlag('shout'), other: api.runtime.getCliFlag('nobody-has-this')});
		appendFileSync(LOG, JSON.stringify(['register', read()]) + '\\n');
		api.registerEventHandler('AgentStart', () => appendFileSync(LOG, JSON.stringify(['turn', read()]) + '\\n'));
	}
`;

function setup(extensions: Record<string, string>): {box: Sandbox; log: string; files: Record<string, string>} {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	const log = join(box.root, 'flags.log');
	writeFileSync(log, '');
	const files: Record<string, string> = {};
	for (const [name, source] of Object.entries(extensions)) {
		files[name] = join(box.root, `${name}.mjs`);
		writeFileSync(files[name], source.replaceAll('LOG', JSON.stringify(log)));
	}

	return {box, log, files};
}

const entries = (log: string) =>
	readFileSync(log, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map(line => JSON.parse(line) as [string, Record<string, unknown>]);

function lastPrompt(): string {
	const messages = mock.requests.at(-1)!.body.messages as Array<{role: string; content: string}>;
	return messages.findLast(message => message.role === 'user')!.content;
}

test('an extension flag takes its value from the command line, the word after it is no longer part of the prompt, and getCliFlag reads it during register and later', async () => {
	const {box, log, files} = setup({greeter});
	mock.enqueue({text: 'Hi.'});
	const run = await runCli(['-p', 'say', 'hi', '--greeting', 'good morning', '--shout', '--extension', files.greeter!, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(lastPrompt(), 'say hi');
	const expected = {greeting: 'good morning', shout: true};
	assert.deepEqual(entries(log), [
		['register', expected],
		['turn', expected],
	]);
});

test('--name=VALUE, --no-name and the defaults', async () => {
	const {box, log, files} = setup({greeter});
	mock.enqueue({text: 'Hi.'}, {text: 'Hi.'});
	let run = await runCli(['-p', 'x', '--greeting=hey there', '--no-shout', '--extension', files.greeter!, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.deepEqual(entries(log)[0], ['register', {greeting: 'hey there', shout: false}]);
	writeFileSync(log, '');
	run = await runCli(['-p', 'x', '--extension', files.greeter!, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.deepEqual(entries(log)[0], ['register', {greeting: 'hello', shout: false}]);
});

test('when the flags take every word, the prompt is read from stdin', async () => {
	const {box, files} = setup({greeter});
	mock.enqueue({text: 'Hi.'});
	const run = await runCli(['-p', '--greeting', 'hey', '--extension', files.greeter!, '-C', box.workspace], {env: box.env, input: 'from stdin\n'});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(lastPrompt().trim(), 'from stdin');
});

test('a flag no extension claims is a usage error after they loaded, naming the nearest flag of either kind, and no model request is made', async () => {
	const {box, files} = setup({greeter});
	const before = mock.requests.length;
	let run = await runCli(['-p', 'x', '--greting', 'hi', '--extension', files.greeter!, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 2);
	assert.match(run.stderr, /unknown flag --greting \(did you mean --greeting\?\)/);
	run = await runCli(['-p', 'x', '--jsno', '--extension', files.greeter!, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 2);
	assert.match(run.stderr, /unknown flag --jsno \(did you mean --json\?\)/);
	assert.equal(mock.requests.length, before);
});

test('where no extension can load (--no-extensions, --help, --version) an unknown flag fails at once, as before', async () => {
	const {box} = setup({});
	for (const extra of [['--no-extensions', '-p', 'x'], ['--help'], ['--version']]) {
		const run = await runCli([...extra, '--greeting', 'hi', '-C', box.workspace], {env: box.env});
		assert.equal(run.code, 2, extra.join(' '));
		assert.match(run.stderr, /unknown flag --greeting/);
	}
});

test('an extension flag given wrongly is a usage error: no value, twice, a value on a switch, --no- of a string flag', async () => {
	const {box, files} = setup({greeter});
	const cases: Array<[string[], RegExp]> = [
		[['--greeting'], /--greeting needs a value/],
		[['--greeting='], /--greeting needs a value/],
		[['--greeting', 'a', '--greeting', 'b'], /--greeting is given twice/],
		[['--shout=yes'], /--shout takes no value/],
		[['--no-greeting'], /--greeting takes a value; only a switch has a --no- form/],
	];
	for (const [flags, message] of cases) {
		const run = await runCli(['-p', 'x', ...flags, '--extension', files.greeter!, '-C', box.workspace], {env: box.env});
		assert.equal(run.code, 2, flags.join(' '));
		assert.match(run.stderr, message);
	}
});

test("registerFlag refuses a built-in flag's name, another extension's, a --no- name and a bad spec; the extension is not loaded and the run says why", async () => {
	const {box, files} = setup({
		first: `export default api => api.registerFlag('greeting', {type: 'string', description: 'mine'});`,
		second: `export default api => api.registerFlag('greeting', {type: 'string', description: 'mine too'});`,
		builtin: `export default api => api.registerFlag('json', {type: 'boolean', description: 'clash'});`,
		negative: `export default api => api.registerFlag('no-color', {type: 'boolean', description: 'off'});`,
		typed: `export default api => api.registerFlag('count', {type: 'number', description: 'n'});`,
		fallback: `export default api => api.registerFlag('level', {type: 'string', default: 3, description: 'n'});`,
	});
	mock.enqueue({text: 'ok'});
	const run = await runCli(['-p', 'x', '-C', box.workspace, ...Object.values(files).flatMap(file => ['--extension', file])], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stderr, /second\.mjs.*registerFlag --greeting: extension first registered it first/);
	assert.match(run.stderr, /builtin\.mjs.*registerFlag --json: i has a flag of that name/);
	assert.match(run.stderr, /negative\.mjs.*--no-NAME is the off form of a switch/);
	assert.match(run.stderr, /typed\.mjs.*type must be "boolean" or "string"/);
	assert.match(run.stderr, /fallback\.mjs.*default must be a string/);
	assert.doesNotMatch(run.stderr, /first\.mjs.*not loaded/);
});

test('the flag of an extension whose register then fails is withdrawn with it: the flag is unknown', async () => {
	const {box, files} = setup({broken: `export default api => { api.registerFlag('mode', {type: 'string', description: 'm'}); throw new Error('no'); };`});
	const run = await runCli(['-p', 'x', '--mode', 'fast', '--extension', files.broken!, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 2);
	assert.match(run.stderr, /register failed: no/);
	assert.match(run.stderr, /unknown flag --mode/);
});

test('line mode: an extension flag with its value works, and a word no flag takes is still an unexpected argument', async () => {
	const {box, log, files} = setup({greeter});
	mock.enqueue({text: 'Hi.'});
	let run = await runCli(['--greeting', 'yo', '--extension', files.greeter!, '-C', box.workspace], {env: box.env, input: 'hello\n'});
	assert.equal(run.code, 0, run.stderr);
	assert.deepEqual(entries(log)[0], ['register', {greeting: 'yo', shout: false}]);
	run = await runCli(['--greeting', 'yo', 'extra', '--extension', files.greeter!, '-C', box.workspace], {env: box.env, input: 'hello\n'});
	assert.equal(run.code, 2);
	assert.match(run.stderr, /unexpected argument "extra"/);
});

test('i extensions lists the flags each extension adds', async () => {
	const {box, files} = setup({greeter});
	const run = await runCli(['extensions', '--json', '--extension', files.greeter!, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const [loaded] = JSON.parse(run.stdout).loaded;
	assert.deepEqual(loaded.flags, [
		{name: 'greeting', type: 'string', default: 'hello', description: 'What to greet with'},
		{name: 'shout', type: 'boolean', default: false, description: 'Greet loudly'},
	]);
	const plain = await runCli(['extensions', '--extension', files.greeter!, '-C', box.workspace], {env: box.env});
	assert.match(plain.stdout, /flag --greeting \(string, default hello\): What to greet with/);
});
