import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {fileURLToPath} from 'node:url';

const child = fileURLToPath(new URL('../fixtures/many-requests.js', import.meta.url));

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
