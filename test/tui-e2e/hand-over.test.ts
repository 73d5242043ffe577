// bin/i.js starts the one-file headless bundle for runs that cannot open the
// chat screen, and the ES module bundle for the rest. Should the headless
// bundle be asked for the chat screen all the same, it hands the run to the
// ES module bundle before doing anything (scripts/headless-tui.cjs): the
// chat screen opens and works, and the headless run does nothing twice.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox} from '../helpers/cli.js';
import {spawnInTerminal} from '../helpers/pty.js';
import {MODEL} from './chat.js';

const headless = fileURLToPath(new URL('../../bundle/headless.cjs', import.meta.url));

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

test('the headless bundle asked for the chat screen hands the run to the ES module bundle, which opens it and answers', async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: MODEL});
	mock.enqueue({text: 'handed over fine'});
	const script = `process.argv.splice(1, 0, ${JSON.stringify(headless)}); require(${JSON.stringify(headless)}).run(process.argv.slice(2))`;
	const run = spawnInTerminal(process.execPath, ['-e', script, '--', '-C', box.workspace], {env: box.env, cwd: box.workspace});
	try {
		await run.ready();
		run.type('hello\r');
		await run.waitFor(screen => screen.includes('handed over fine'), 'the answer');
		run.type('/exit\r');
		const {exitCode} = await run.exit();
		assert.equal(exitCode, 0, run.output());
		// One session: the headless run opened none of its own before it handed over.
		const workspaces = join(box.env.I_DATA_DIR!, 'workspaces');
		const [id] = readdirSync(workspaces);
		assert.deepEqual(
			readdirSync(join(workspaces, id!, 'sessions')).filter(name => name.endsWith('.json') && !name.startsWith('.')),
			['hello.json'],
		);
	} finally {
		await run.close();
	}
});
