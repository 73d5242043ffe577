// `i dev` in a real pseudo-terminal against the mock provider: the chat
// screen opens with the staged build loaded, a saved change is built and
// reloaded, a broken one keeps the loaded version and shows the build's
// error, /reload builds again, and the staged copies are removed once the
// screen closes (issue 14 item 7).
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, readdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox} from '../helpers/cli.js';
import {runInTerminal} from '../helpers/pty.js';
import {MODEL} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

test('i dev builds, opens the chat screen with the build loaded (its command in /help), and removes the staged copy when the screen closes', async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: MODEL, max_retries: 0});
	const pkg = join(box.root, 'cmd-ext');
	mkdirSync(join(pkg, 'src'), {recursive: true});
	writeFileSync(join(pkg, 'package.json'), JSON.stringify({name: 'cmd-ext', type: 'module', exports: './src/index.ts'}));
	writeFileSync(
		join(pkg, 'src', 'index.ts'),
		`export default function register(api: any): void { api.registerCommand('greet', {description: 'says hello from the dev build', handler: (): string => 'hello'}); }\n`,
	);
	const run = runInTerminal(['dev', pkg, '--', '-C', box.workspace], {env: box.env, cwd: box.workspace});
	try {
		await run.ready();
		const staged = join(box.workspace, '.i', 'extensions', '.dev');
		assert.deepEqual(
			readdirSync(staged).filter(name => name === 'cmd-ext-1'),
			['cmd-ext-1'],
		);
		run.type('/help\r');
		await run.waitFor(screen => /\/greet\s+says hello from the dev build \(extension cmd-ext\)/.test(screen), 'the dev build’s command in /help');
		run.type('/exit\r');
		const {exitCode} = await run.exit();
		assert.equal(exitCode, 0);
		assert.deepEqual(readdirSync(staged), ['.gitignore']);
	} finally {
		await run.close();
	}
});

test('i dev rebuilds and reloads a saved change; a broken change keeps the loaded version and shows the build error; /reload builds again', async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: MODEL, max_retries: 0});
	const pkg = join(box.root, 'ver-ext');
	mkdirSync(join(pkg, 'src'), {recursive: true});
	writeFileSync(join(pkg, 'package.json'), JSON.stringify({name: 'ver-ext', type: 'module', main: 'dist/index.js', scripts: {build: 'node build.mjs'}}));
	// Fails on a source holding BROKEN, as a compiler would.
	writeFileSync(
		join(pkg, 'build.mjs'),
		`import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
const source = readFileSync('src/index.js', 'utf8');
if (source.includes('BROKEN')) { console.error('src/index.js:1: error: not a valid version'); process.exit(1); }
mkdirSync('dist', {recursive: true}); writeFileSync('dist/index.js', source);
`,
	);
	const version = (name: string) => `export default function register(api) { api.registerCommand('ver', {description: 'which version', handler: () => 'version ${name}'}); }\n`;
	writeFileSync(join(pkg, 'src', 'index.js'), version('one'));
	const staged = join(box.workspace, '.i', 'extensions', '.dev');
	const run = runInTerminal(['dev', pkg, '--', '-C', box.workspace], {env: box.env, cwd: box.workspace});
	try {
		await run.ready();
		run.type('/ver\r');
		await run.waitFor(screen => screen.includes('version one'), 'the first build');
		writeFileSync(join(pkg, 'src', 'index.js'), version('two'));
		await run.waitFor(screen => screen.includes('reloaded 2 extensions'), 'the reload of the new build');
		run.type('/ver\r');
		await run.waitFor(screen => screen.includes('version two'), 'the second build answering');

		writeFileSync(join(pkg, 'src', 'index.js'), `${version('three')}// BROKEN\n`);
		await run.waitFor(screen => screen.includes('the build failed; the loaded version stays') && screen.includes('not a valid version'), 'the build error');
		run.type('/ver\r');
		await run.waitFor(screen => screen.split('version two').length > 2, 'the second build still answering', {whole: true});

		writeFileSync(join(pkg, 'src', 'index.js'), version('four'));
		await run.waitFor(screen => screen.split('reloaded 2 extensions').length > 2, 'the fixed build reloaded', {whole: true});
		run.type('/reload\r');
		await run.waitFor(screen => screen.split('reloaded 2 extensions').length > 3, 'the /reload build', {whole: true});
		assert.deepEqual(
			readdirSync(staged)
				.filter(name => name.startsWith('ver-ext-'))
				.sort(),
			['ver-ext-1', 'ver-ext-2', 'ver-ext-3', 'ver-ext-4'],
		);
		run.type('/exit\r');
		assert.equal((await run.exit()).exitCode, 0);
		assert.deepEqual(readdirSync(staged), ['.gitignore']);
	} finally {
		await run.close();
	}
});
