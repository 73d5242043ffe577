import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli} from '../helpers/cli.js';
import {lastUserText, startChat} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

test('/he and Tab complete to /help, which shows the keys; /session names the session; /exit leaves with 0', async () => {
	const {run, box} = await startChat(mock, {args: ['--session', 'chat.json']});
	try {
		const requests = mock.requests.length;
		run.type('/he');
		await run.waitFor(screen => screen.includes('› /he'), 'the typed prefix');
		run.type('\t');
		await run.waitFor(screen => screen.split('\n').includes('› /help'), 'the completed command');
		run.type('\r');
		await run.waitFor(screen => screen.includes('Alt+Enter or Ctrl-J starts a new line') && screen.includes('/exit'), 'the help', {whole: true});

		const header = JSON.parse(readFileSync(join(box.workspace, 'chat.json'), 'utf8').split('\n', 1)[0]!) as {id: string};
		run.type('/session\r');
		await run.waitFor(screen => screen.includes(`session ${header.id}`), 'the session ID');

		run.type('/exit\r');
		const {exitCode} = await run.exit();
		assert.equal(exitCode, 0);
		assert.equal(mock.requests.length, requests, 'no command went to the model');
	} finally {
		await run.close();
	}
});

test("/compact that an extension's SessionBeforeCompact cancels says so in a notice, and the history is kept", async () => {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'builtin.json'), JSON.stringify({builtin_profile: 'compact', tools: []}));
	const config = join(box.root, 'compact-config.json');
	writeFileSync(
		config,
		JSON.stringify({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0, api_key_env: 'TEST_API_KEY', budget: {window: 20_000}, plugins: [join(box.configDir, 'builtin.json')]}),
	);
	const extensions = join(box.root, 'extensions');
	mkdirSync(extensions);
	writeFileSync(join(extensions, 'guard.mjs'), "export default api => api.registerEventHandler('SessionBeforeCompact', event => ({cancel: true, reason: 'keeping all ' + (event.cut - 1) + ' messages'}));");
	const session = join(box.root, 's.json');
	for (let turn = 1; turn <= 3; turn++) mock.enqueue({text: `answer ${turn}`});
	const filled = await runCli(['--config', config, '--session', session, '-C', box.workspace], {env: box.env, input: 'question 1\nquestion 2\nquestion 3\n'});
	assert.equal(filled.code, 0, filled.stderr);
	const saved = readFileSync(session, 'utf8');
	const {run} = await startChat(mock, {box, args: ['--config', config, '--session', session], env: {I_EXTENSIONS_DIR: extensions}});
	try {
		const requests = mock.requests.length;
		run.type('/compact\r');
		await run.waitFor(screen => /extension guard cancelled the compaction \(keeping all \d+ messages\); the history is unchanged/.test(screen.replaceAll('\n', ' ')), 'the notice');
		run.type('/exit\r');
		assert.equal((await run.exit()).exitCode, 0);
		assert.equal(mock.requests.length, requests, 'no summary request was sent');
		assert.equal(readFileSync(session, 'utf8'), saved);
	} finally {
		await run.close();
	}
});

test('a /name that is a prompt template is a turn, sent expanded; an unknown /name is still only a warning', async () => {
	const box = makeSandbox();
	// The prompts module alone, which expands templates.
	writeFileSync(join(box.configDir, 'builtin.json'), JSON.stringify({builtin_profile: 'configured', tools: []}));
	writeFileSync(join(box.configDir, 'plugins.json'), JSON.stringify({profile: 'standard', disabled: ['approval', 'budget', 'compact', 'cache', 'memory', 'skills', 'web', 'search']}));
	const writeConfig = box.writeConfig;
	box.writeConfig = config => writeConfig({...config, plugins: ['builtin.json']});
	mkdirSync(join(box.workspace, '.i', 'prompts'), {recursive: true});
	writeFileSync(join(box.workspace, '.i', 'prompts', 'review.md'), 'Review $1 closely.');
	mock.enqueue({text: 'Reviewed.'});
	const {run} = await startChat(mock, {box});
	try {
		const requests = mock.requests.length;
		run.type('/nothing here\r');
		await run.waitFor(screen => screen.includes('no command /nothing; /help lists them'), 'the unknown command');
		run.type('/review a.ts\r');
		await run.waitFor(screen => screen.includes('Reviewed.'), 'the answer');
		assert.equal(mock.requests.length, requests + 1);
		assert.equal(lastUserText(mock.requests[requests]!.body), 'Review a.ts closely.');
	} finally {
		await run.close();
	}
});
