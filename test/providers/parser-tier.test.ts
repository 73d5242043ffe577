import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

const child = fileURLToPath(new URL('../fixtures/many-requests.js', import.meta.url));
// The fixture's script text (importing the fixture would run it).
const CACHED_SOURCE = 'function flagsAsTheyWere() { return 1 + 1; } flagsAsTheyWere();';

/** The WebAssembly functions V8 compiled with its optimising tier while `child` ran with these node flags. */
function optimised(flags: string[]): string[] {
	const run = spawnSync(process.execPath, ['--trace-wasm-compilation-times', ...flags, child], {encoding: 'utf8', timeout: 60_000});
	assert.equal(run.status, 0, run.stderr);
	return run.stdout.split('\n').filter(line => line.includes('using TurboFan'));
}

// Node 24's V8 reads the tier flags when it starts: one set at run time no longer keeps a hot function from tiering up (seen on 24.22).
const tierSetAtRunTime = Number(process.versions.node.split('.')[0]) < 24;

test("undici's HTTP parser stays in the baseline tier: no optimising compile for a quick one-shot's exit to wait for", {
	skip: tierSetAtRunTime ? false : `node ${process.version}: V8 takes its WebAssembly tier flags only at start`,
}, () => {
	assert.deepEqual(optimised([]), []);
	// The control: node started with a tier flag of its own is left alone, and the parser, hot after a few replies, is optimised.
	assert.ok(optimised(['--wasm-tier-up']).length > 0, 'the trace shows optimising compiles at all');
});

test('the transport leaves V8 flags as they were: code compiled after its first request is code a fresh node accepts', {
	skip: tierSetAtRunTime ? false : `node ${process.version}: the transport sets no flag`,
}, t => {
	const folder = mkdtempSync(join(tmpdir(), 'i-tier-'));
	t.after(() => rmSync(folder, {recursive: true, force: true}));
	const file = join(folder, 'code.bin');
	const run = spawnSync(process.execPath, [child], {encoding: 'utf8', timeout: 60_000, env: {...process.env, CACHED_DATA_FILE: file}});
	assert.equal(run.status, 0, run.stderr);
	// A fresh node (a fresh V8: no compilation cache of its own) compiles the same text with that code.
	const check = spawnSync(
		process.execPath,
		[
			'-e',
			`const {Script} = require('node:vm'); const script = new Script(process.argv[1], {cachedData: require('node:fs').readFileSync(process.argv[2])}); process.stdout.write(String(script.cachedDataRejected));`,
			CACHED_SOURCE,
			file,
		],
		{encoding: 'utf8'},
	);
	assert.equal(check.status, 0, check.stderr);
	assert.equal(check.stdout, 'false', "V8 refused the code: the transport's flags changed its flag hash");
});
