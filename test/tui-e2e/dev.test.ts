// `i dev` opens the chat screen with the staged build loaded, in a real
// pseudo-terminal against the mock provider, and removes the staged copy
// once the screen closes (issue 14 item 7). Reloading each new build is the
// chat screen's part and tested with /reload.
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
