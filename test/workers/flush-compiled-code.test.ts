// The snapshot builder's flush of compiled code (workers/host/flush-compiled-code.ts):
// one call drops the bytecode of every function not running, the functions
// still run (compiled again when called), and the V8 flag it sets is set back,
// so later collections flush nothing more than they would.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {fileURLToPath} from 'node:url';

const flush = fileURLToPath(new URL('../../workers/host/flush-compiled-code.js', import.meta.url));

test('flushCompiledCode drops the bytecode of functions run once, they still run, and a later collection keeps what is compiled again', () => {
	const script = `
		import * as v8 from 'node:v8';
		import {flushCompiledCode} from ${JSON.stringify(flush)};
		const bytecode = () => v8.getHeapCodeStatistics().bytecode_and_metadata_size;
		const functions = Array.from({length: 2000}, (_, index) => new Function('a', 'return a * ' + index + ' + Math.max(a, ' + index + ');'));
		const sum = () => functions.reduce((total, f) => total + f(2), 0);
		const first = sum();
		const compiled = bytecode();
		const flushed = flushCompiledCode();
		const left = bytecode();
		const again = sum();
		const recompiled = bytecode();
		// A full collection without the flag: code used since is kept.
		class Nothing {}
		v8.queryObjects(Nothing, {format: 'count'});
		process.stdout.write(JSON.stringify({flushed, first, again, compiled, left, recompiled, kept: bytecode()}));
	`;
	const run = spawnSync(process.execPath, ['--no-warnings', '--input-type=module', '-e', script], {encoding: 'utf8'});
	assert.equal(run.status, 0, run.stderr);
	const result = JSON.parse(run.stdout) as Record<string, number | boolean>;
	assert.equal(result.flushed, true);
	assert.equal(result.again, result.first);
	const [compiled, left, recompiled, kept] = [result.compiled, result.left, result.recompiled, result.kept] as number[];
	assert.ok(left! < compiled! / 4, `bytecode from ${compiled} to ${left} bytes`);
	// The functions' own code comes back; each Function's run-once wrapper (its script's top level) does not.
	assert.ok(recompiled! > compiled! / 4 && recompiled! > left! * 4, `compiled again: ${recompiled} bytes`);
	assert.ok(kept! > (recompiled! * 3) / 4, `a collection without the flag keeps ${kept} of ${recompiled} bytes`);
});
