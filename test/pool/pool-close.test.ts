import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {test} from 'node:test';
import {fixture, folder, isAlive, pidOf, python, setup} from './helpers.js';

test('closing the pool gives an idle worker EOF and time to finish what it still has to do', async t => {
	const {pool, dir} = await setup(t);
	const cwd = await folder(dir, 'finish');
	const pid = pidOf(await pool.call({exec: [python, fixture('linger.py'), 'finish'], cwd}, 'tool', {}));
	await pool.close();
	assert.ok(existsSync(join(cwd, 'finished')), 'the worker finished its work after EOF');
	assert.equal(isAlive(pid), false);
});

test('a worker that lingers after EOF has its group killed once the grace is over', async t => {
	const {pool, dir} = await setup(t);
	const pid = pidOf(await pool.call({exec: [python, fixture('linger.py'), 'ignore'], cwd: dir}, 'tool', {}));
	// It would sleep 60 s: closing returns after the grace, with the worker gone.
	await pool.close();
	assert.equal(isAlive(pid), false);
});
