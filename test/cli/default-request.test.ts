// Snapshots of exactly what the model is sent with the default profile (the
// one `i --runtime init` writes): the system prompt and every tool schema of
// the first request of `i -p hello`, run as a person runs it against the mock
// provider. A change to either shows in review as a change to
// test/snapshots/default-system-prompt.txt or default-tools.json.
//
// To accept a change, rewrite the snapshots and review their diff:
//
//   npm run build && UPDATE_SNAPSHOTS=1 node scripts/run-tests.js cli/default-request
//
// Only what varies between runs and machines is normalised, each by name
// (`normalisations` below); anything else that differs fails the test.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync, writeFileSync, existsSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

/** The tests run from dist/test: the snapshots are the repository's own files. */
const repository = fileURLToPath(new URL('../../../', import.meta.url));
const snapshotFolder = join(repository, 'test', 'snapshots');
const updating = process.env.UPDATE_SNAPSHOTS === '1';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/** What differs from run to run, by name; applied in this order (the workspace lies inside the sandbox). */
function normalisations(box: Sandbox): Array<{name: string; from: string; to: string}> {
	return [
		{name: 'the workspace: a new temp folder each run', from: box.workspace, to: '<workspace>'},
		{name: 'the sandbox of the platform folders (config, data, cache, runtime): a new temp folder each run', from: box.root, to: '<sandbox>'},
	];
}

/** The first request of `i -p hello` in a fresh sandbox with the default profile: its system prompt, its tools as sent, and the rest of its messages. */
async function firstRequest(): Promise<{systemPrompt: string; tools: string; rest: unknown[]}> {
	const box = makeSandbox();
	const init = await runCli(['--runtime', 'init'], {env: box.env});
	assert.equal(init.code, 0, init.stderr);
	const config = JSON.parse(readFileSync(join(box.configDir, 'config.json'), 'utf8')) as Record<string, unknown>;
	box.writeConfig({...config, protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	const start = mock.requests.length;
	mock.enqueue({text: 'Hello!'});
	const run = await runCli(['-p', 'hello', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'Hello!\n');
	const [request, ...more] = mock.requests.slice(start);
	assert.equal(more.length, 0);
	const [system, ...rest] = request!.body.messages as Array<{role: string; content: unknown}>;
	assert.equal(system?.role, 'system');
	const normalise = (text: string) => normalisations(box).reduce((result, {from, to}) => result.replaceAll(from, to), text);
	return {systemPrompt: normalise(String(system!.content)), tools: normalise(`${JSON.stringify(request!.body.tools, null, '\t')}\n`), rest};
}

function compare(name: string, actual: string): void {
	const path = join(snapshotFolder, name);
	if (updating) {
		writeFileSync(path, actual);
		return;
	}

	assert.ok(existsSync(path), `${path} is missing; write it with UPDATE_SNAPSHOTS=1 (see the top of this test)`);
	assert.equal(actual, readFileSync(path, 'utf8'), `what the model is sent changed (${name}); if that is meant, rewrite the snapshot with UPDATE_SNAPSHOTS=1 and review its diff`);
}

test('the default profile sends the model this system prompt and these tools', async () => {
	const first = await firstRequest();
	// A second run in another sandbox sends the same once normalised: nothing else in it varies (and an update writes nothing unstable).
	const second = await firstRequest();
	assert.deepEqual(second, first);
	// With no skills, memory or AGENTS.md in the sandbox, nothing is added to the person's message.
	assert.deepEqual(first.rest, [{role: 'user', content: 'hello'}]);
	compare('default-system-prompt.txt', `${first.systemPrompt}\n`);
	compare('default-tools.json', first.tools);
});
