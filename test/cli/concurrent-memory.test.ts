// Issue 48, point 4: concurrent writers lose no call. Eight `i -p` in one
// workspace, each with the default profile's official host, make 50
// memory_write calls at once; the host waiting for memory.json.lock must
// never end by itself ("the worker exited with code 0 before answering").
import assert from 'node:assert/strict';
import {readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {test} from 'node:test';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli} from '../helpers/cli.js';

const WRITERS = 8;
const CALLS_EACH = 50;

test(`${WRITERS} concurrent one-shots in one workspace make ${CALLS_EACH} memory writes each, and none fails`, async t => {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'builtin.json'), JSON.stringify({builtin_profile: 'standard', tools: []}));
	// One provider each: a shared queue would hand one writer's replies to another.
	const mocks: MockProvider[] = await Promise.all(Array.from({length: WRITERS}, async () => startMockProvider()));
	t.after(async () => Promise.all(mocks.map(async mock => mock.close())));
	const runs = await Promise.all(
		mocks.map(async (mock, writer) => {
			const config = join(box.configDir, `writer-${writer}.json`);
			writeFileSync(config, JSON.stringify({api_key_env: 'TEST_API_KEY', protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0, plugins: ['builtin.json']}));
			const calls = Array.from({length: CALLS_EACH}, (_, index) => ({
				id: `c${index}`,
				name: 'memory_write',
				arguments: JSON.stringify({key: `w${writer}/k${index}`, text: `note ${index} of writer ${writer}`}),
			}));
			mock.enqueue({toolCalls: calls}, {text: 'stored'});
			// Each its own session file: sessions named after one first message would clash.
			const session = join(box.root, `writer-${writer}.json`);
			return {mock, run: await runCli(['-p', 'remember', '--yolo', '--config', config, '--session', session, '-C', box.workspace], {env: box.env, timeoutMs: 120_000})};
		}),
	);
	for (const {mock, run} of runs) {
		assert.equal(run.code, 0, run.stderr);
		const results = mock.requests.at(-1)!.body.messages.filter((message: any) => message.role === 'tool');
		assert.equal(results.length, CALLS_EACH);
		const failed = results.filter((message: any) => !/^created memory entry "w\d\/k\d+"/.test(message.content));
		assert.deepEqual(
			failed.map((message: any) => message.content),
			[],
		);
	}

	const workspaces = join(box.root, 'data', 'workspaces');
	const [id] = readdirSync(workspaces);
	const memory = JSON.parse(readFileSync(join(workspaces, id!, 'memory.json'), 'utf8'));
	assert.equal(Object.keys(memory.entries).length, WRITERS * CALLS_EACH);
});
