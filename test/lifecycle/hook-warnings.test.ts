// The warnings a hook's worker gives with its answer (spec/platform.md §2),
// through a real pool: each reaches the caller naming the module or worker,
// and the chain keeps the latest MAX_KEPT_WARNINGS for /context.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {createHookChain, HookError, MAX_KEPT_WARNINGS} from '../../source/core/lifecycle/hook-chain.js';
import {fixture, python, setup} from '../pool/helpers.js';

test(`a hook's warnings reach the caller naming who gave them; the chain keeps the latest ${MAX_KEPT_WARNINGS}, each once`, async t => {
	const {pool, dir} = await setup(t);
	const worker = {exec: [python, fixture('faulty.py'), 'echo'], cwd: dir};
	const chain = createHookChain(
		[
			{events: ['before_turn'], worker, module: 'skills', manifest: 'builtin.json'},
			{events: ['context_budget'], worker, manifest: '/m.json'},
		],
		pool,
	);
	const heard: string[] = [];
	const warn = (message: string) => heard.push(message);
	await chain.run('before_turn', {warnings: ['one', 'two']}, {warn});
	assert.deepEqual(heard, ['the skills module: one', 'the skills module: two']);
	await chain.run('context_budget', {warnings: ['three']}, {warn});
	assert.equal(heard.at(-1), `${JSON.stringify(worker.exec)}: three`);
	assert.deepEqual(chain.warnings(), ['the skills module: one', 'the skills module: two', `${JSON.stringify(worker.exec)}: three`]);

	await chain.run('before_turn', {warnings: Array.from({length: 16}, (_, n) => `w${n}`)});
	await chain.run('before_turn', {warnings: ['w16', 'w0']});
	// 20 kept: a warning told again moved to the end, counted once.
	let kept = chain.warnings();
	assert.equal(kept.length, MAX_KEPT_WARNINGS);
	assert.deepEqual([kept[0], ...kept.slice(-2)], ['the skills module: one', 'the skills module: w16', 'the skills module: w0']);
	assert.equal(kept.filter(message => message === 'the skills module: w0').length, 1);
	// One more: the oldest goes.
	await chain.run('before_turn', {warnings: ['w17']});
	kept = chain.warnings();
	assert.equal(kept.length, MAX_KEPT_WARNINGS);
	assert.deepEqual([kept[0], kept.at(-1)], ['the skills module: two', 'the skills module: w17']);

	await assert.rejects(chain.run('before_turn', {warnings: 'careful'}), (error: unknown) => {
		assert.ok(error instanceof HookError);
		assert.match(error.message, /^before_turn hook of the skills module \(builtin\.json\) failed: .*answered with "warnings" that is not a list of strings: "careful"/);
		return true;
	});
});
