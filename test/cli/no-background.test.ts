// Issue 41: nothing is started in the background on a person's machine that
// they did not ask for, and no V8 flag is switched at run time in the
// official host. A first one-shot with the default profile in a fresh cache
// folder leaves no process behind and writes nothing into the cache folder
// after it exits (a detached snapshot builder once did both); the host's
// bundle holds no call of v8.setFlagsFromString.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli} from '../helpers/cli.js';

const bin = fileURLToPath(new URL('../../../bin/i.js', import.meta.url));
const hostBundles = fileURLToPath(new URL('../../host/', import.meta.url));
const linux = process.platform === 'linux' ? false : 'reads /proc';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/** The processes whose command line or environment names `folder` (a builder of a snapshot kept there named it), as `pid: command line`. */
function processesNaming(folder: string): string[] {
	const found: string[] = [];
	for (const pid of readdirSync('/proc').filter(name => /^\d+$/.test(name) && Number(name) !== process.pid)) {
		try {
			const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
			const environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
			if (command.includes(folder) || environment.some(variable => variable.startsWith('I_CACHE_DIR=') && variable.includes(folder))) found.push(`${pid}: ${command}`);
		} catch {
			// Gone meanwhile, or another user's.
		}
	}

	return found;
}

/** Every file under `folder`, as paths relative to it. */
function filesUnder(folder: string): string[] {
	return readdirSync(folder, {recursive: true, withFileTypes: true})
		.filter(entry => entry.isFile())
		.map(entry => join(entry.parentPath, entry.name).slice(folder.length + 1))
		.sort();
}

const sleep = async (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

test('a first one-shot in a fresh cache folder leaves no process behind and nothing is written there after it exits', {skip: linux}, async () => {
	const box = makeSandbox();
	const init = await runCli(['--runtime', 'init'], {env: box.env, entry: bin});
	assert.equal(init.code, 0, init.stderr);
	const config = JSON.parse(readFileSync(join(box.configDir, 'config.json'), 'utf8')) as Record<string, unknown>;
	box.writeConfig({...config, protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	const cache = box.env.I_CACHE_DIR!;
	mock.enqueue({text: 'Hello!'});
	const run = await runCli(['-p', 'Say hello', '-C', box.workspace], {env: box.env, entry: bin});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'Hello!\n');
	// The workers are reaped before `i` exits; a moment's grace for one the kernel has not cleared yet.
	for (const deadline = Date.now() + 2000; processesNaming(cache).length > 0 && Date.now() < deadline; ) await sleep(50);
	assert.deepEqual(processesNaming(cache), []);
	const files = filesUnder(cache);
	await sleep(1500);
	assert.deepEqual(filesUnder(cache), files, 'nothing wrote into the cache folder after the one-shot exited');
	assert.deepEqual(
		files.filter(file => /\.(blob|lock)$|[\\/]host[\\/]/.test(file)),
		[],
	);
});

test('the official host bundle switches no V8 flag at run time', () => {
	const bundles = readdirSync(hostBundles).filter(name => name.endsWith('.cjs'));
	assert.ok(bundles.includes('official.cjs'), `the host's bundle is in ${hostBundles}: ${bundles.join(', ')}`);
	for (const bundle of bundles) assert.doesNotMatch(readFileSync(join(hostBundles, bundle), 'utf8'), /setFlagsFromString/, bundle);
});
