// A resumed session looks as it did live (issue 45, point 9), in a real
// pseudo-terminal with the default profile: a turn whose web_fetch fails and
// whose memory_write works, then a turn the memory module hands a context
// snapshot; `i -c` shows the failed call as ✗, the other as ✓, and no
// prompt the person did not type.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, type Sandbox} from '../helpers/cli.js';
import type {TerminalRun} from '../helpers/pty.js';
import {MODEL, startChat} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/** `text` is on the screen and the turn is over (the status line offers /help again, not Esc). */
async function answered(run: TerminalRun, text: string): Promise<void> {
	await run.waitUntil(() => {
		const rows = run.screen();
		return rows.some(row => row.includes(text)) && rows.some(row => row.includes(`${MODEL} · `) && row.endsWith('/help'));
	}, `${text} and the turn's end`);
}

/** Every message the workspace's one session file holds, over all its lines. */
function savedMessages(box: Sandbox): Array<Record<string, unknown>> {
	const registry = JSON.parse(readFileSync(join(box.env.I_DATA_DIR!, 'workspaces.json'), 'utf8')) as {workspaces: Record<string, string>};
	const folder = join(box.env.I_DATA_DIR!, 'workspaces', Object.values(registry.workspaces)[0]!, 'sessions');
	const [file] = readdirSync(folder).filter(name => name.endsWith('.json') && !name.startsWith('.'));
	return readFileSync(join(folder, file!), 'utf8')
		.split('\n')
		.filter(line => line.trim() !== '')
		.flatMap(line => (JSON.parse(line) as {messages?: Array<Record<string, unknown>>}).messages ?? []);
}

test('i -c after a failed web_fetch and a memory snapshot: ✗ for the failure, ✓ for the rest, no prompt no one typed', async () => {
	mock.enqueue(
		{
			toolCalls: [
				{id: 'w1', name: 'memory_write', arguments: JSON.stringify({key: 'style/indent', text: 'tabs'})},
				{id: 'w2', name: 'web_fetch', arguments: JSON.stringify({url: 'http://127.0.0.1:9/nothing'})},
			],
		},
		{text: 'first done'},
		{text: 'second done'},
	);
	const box = makeSandbox();
	// The default profile, pinned as a built-in descriptor: its memory and web modules.
	writeFileSync(join(box.configDir, 'builtin.json'), JSON.stringify({builtin_profile: 'standard', tools: []}));
	const config = {plugins: ['builtin.json']};
	const first = await startChat(mock, {box, config, args: ['--yolo'], rows: 50, cols: 120});
	try {
		first.run.type('Remember tabs\r');
		await answered(first.run, 'first done');
		first.run.type('And now?\r');
		await answered(first.run, 'second done');
		// Live, the failure was ✗ and the snapshot never showed.
		assert.ok(
			first.run.screen().some(row => row.startsWith('✗ web_fetch')),
			first.run.screen().join('\n'),
		);
		first.run.type('/exit\r');
		assert.equal((await first.run.exit()).exitCode, 0);
	} finally {
		await first.run.close();
	}

	// The test means something only if the session holds both: a failed result and a snapshot.
	const messages = savedMessages(box);
	assert.ok(
		messages.some(message => message.role === 'tool' && message.tool_call_id === 'w2' && message._is_error === true),
		'the failure is saved',
	);
	assert.ok(
		messages.some(message => message.role === 'user' && (message._context as {source?: string} | undefined)?.source === 'memory'),
		'the memory snapshot is saved',
	);

	const second = await startChat(mock, {box, config, args: ['-c'], rows: 50, cols: 120});
	try {
		await second.run.waitFor(screen => screen.includes('second done'), 'the resumed conversation');
		const rows = second.run.screen();
		const screen = rows.join('\n');
		assert.ok(
			rows.some(row => row.startsWith('✗ web_fetch')),
			screen,
		);
		assert.ok(
			rows.some(row => row.startsWith('✓ memory_write')),
			screen,
		);
		const prompts = rows.filter(row => row.startsWith('›') && !row.includes('Ask i anything'));
		assert.deepEqual(prompts, ['› Remember tabs', '› And now?'], screen);
		for (const hidden of ['Reference data', '<context', 'untrusted']) assert.ok(!screen.includes(hidden), `${hidden} in\n${screen}`);
		second.run.type('/exit\r');
		assert.equal((await second.run.exit()).exitCode, 0);
	} finally {
		await second.run.close();
	}
});
