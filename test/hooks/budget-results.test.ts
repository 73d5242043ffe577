import {test} from 'node:test';
import assert from 'node:assert/strict';
import {HookError} from '../../source/core/lifecycle/hook-chain.js';
import {readBudgetAnchored, readBudgetFigures, readBudgetFits, readToolBudget} from '../../source/core/lifecycle/hook-results.js';

test('a budget answer: fits, its figures when it gives them, and the tool share', () => {
	assert.equal(readBudgetFits({}), true, 'a budget that says nothing leaves the request alone');
	assert.equal(readBudgetFits({fits: false}), false);
	assert.deepEqual(readBudgetFigures({estimate: 10, limit: 20, window: 30}), {estimate: 10, limit: 20, window: 30});
	assert.deepEqual(readBudgetFigures({estimate: 10, limit: 20}), {estimate: 10, limit: 20, window: null});
	assert.equal(readBudgetAnchored({estimate: 10, limit: 20, method: 'usage'}), true, "the official budget's usage-anchored estimate");
	assert.equal(readBudgetAnchored({estimate: 10, limit: 20, method: 'utf8_bytes'}), false);
	assert.equal(readBudgetFigures({fits: true}), null, 'no figures, nothing to report');
	assert.equal(readBudgetFigures({estimate: -1, limit: 20}), null);
	assert.equal(readToolBudget({}), null);
	assert.equal(readToolBudget({tool_budget: {per_call_chars: 400}}), 400);
});

test('an unusable tool_budget is a hook error, never a silent default', () => {
	for (const bad of [{per_call_chars: -1}, {per_call_chars: 1.5}, {per_call_chars: '400'}, 'lots']) {
		assert.throws(
			() => readToolBudget({tool_budget: bad}),
			(error: Error) => error instanceof HookError && /context_budget hook returned an unusable tool_budget/.test(error.message),
			JSON.stringify(bad),
		);
	}
});
