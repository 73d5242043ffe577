// The real 15 s limit, tested once (spec/platform.md §2); other timing tests shorten it.
// A file of its own, so the wait runs beside the other test files.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {createWorkerPool, DEFAULT_CALL_TIMEOUT_MS} from '../../source/core/pool/pool.js';
import {workerEnvironment} from '../../source/core/pool/worker-environment.js';
import {failure, pidOf, setup, waitUntilGone, workspaceId} from './helpers.js';

test('a call to a hanging worker times out after 15 s and the worker is stopped', async t => {
	assert.equal(DEFAULT_CALL_TIMEOUT_MS, 15_000);
	const {dir, dirs, faulty} = await setup(t);
	const pool = createWorkerPool({context: {workspace: dir, workspace_id: workspaceId, paths: dirs}, env: workerEnvironment(process.env, dirs), ioLimitBytes: 65_536});
	t.after(() => pool.close());
	const spec = faulty('hang');
	const first = pidOf(await pool.call(spec, 'tool', {}));
	const started = Date.now();
	await assert.rejects(pool.call(spec, 'tool', {}), failure('timeout', /call "tool" timed out after 15 s waiting for the answer; the worker was stopped$/));
	const elapsed = Date.now() - started;
	assert.ok(elapsed >= 15_000 && elapsed < 16_500, `${elapsed} ms`);
	assert.ok(await waitUntilGone(first));
	assert.notEqual(pidOf(await pool.call(spec, 'tool', {})), first);
});
