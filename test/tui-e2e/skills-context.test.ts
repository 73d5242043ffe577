// Two skills of one name in the chat screen (issue 48 point 6): the first
// found is used, the other is told once as a warning over two turns, and
// /context names it.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox} from '../helpers/cli.js';
import type {TerminalRun} from '../helpers/pty.js';
import {startChat} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const idle = (screen: string) => screen.split('\n').some(row => row.endsWith('/help'));

async function send(run: TerminalRun, text: string, answer: string): Promise<void> {
	mock.enqueue({text: answer});
	run.type(`${text}\r`);
	await run.waitFor(screen => screen.includes(answer) && idle(screen), `the answer ${answer}`);
}

test('two skills of one name: the first is shown to the model, the other is told once and named by /context', async () => {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'builtin.json'), JSON.stringify({builtin_profile: 'skills', tools: []}));
	const write = (root: string, dir: string, description: string) => {
		mkdirSync(join(box.workspace, root, dir), {recursive: true});
		writeFileSync(join(box.workspace, root, dir, 'SKILL.md'), `---\nname: deploy\ndescription: ${description}\n---\nBody.\n`);
		return join(box.workspace, root, dir, 'SKILL.md');
	};

	const first = write('.agents/skills', 'deploy', 'The first one.');
	const second = write('.claude/skills', 'deploy-copy', 'The second one.');
	const told = `skill "deploy" of ${second} is not used: ${first} has the same name and was found first (rename one to use both)`;
	const tellings = (run: TerminalRun) => run.lines().filter(line => line.includes(told)).length;
	const {run} = await startChat(mock, {box, cols: 400, config: {plugins: ['builtin.json']}});
	try {
		const sent = mock.requests.length;
		await send(run, 'first', 'answer one');
		await run.waitUntil(() => tellings(run) === 1, 'the warning');
		await send(run, 'second', 'answer two');
		assert.equal(tellings(run), 1, 'told once over two turns');
		const snapshot = mock.requests[sent]!.body.messages.find((message: any) => String(message.content).includes('<context source="skills"'));
		assert.match(snapshot.content, /"deploy":"The first one\.\\nsource: \.agents\/skills\/deploy\/SKILL\.md"/);

		run.type('/context\r');
		await run.waitUntil(() => run.lines().some(line => line.startsWith('What the modules warned of in this run')), 'the warnings under the /context table');
		const lines = run.lines();
		const heading = lines.findLastIndex(line => line.startsWith('What the modules warned of in this run'));
		assert.equal(lines[heading + 1]!.trim(), `the skills module: ${told}`);
		run.type('/exit\r');
		assert.equal((await run.exit()).exitCode, 0);
	} finally {
		await run.close();
	}
});
