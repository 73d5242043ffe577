import {test} from 'node:test';
import assert from 'node:assert/strict';
import {addCost, costOf, formatCost, NO_COST} from '../../source/core/usage-cost.js';

const usage = (input: number, output: number, cacheRead = 0, cacheWrite = 0) => ({input, output, cacheRead, cacheWrite});
const prices = {input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75};
const near = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} is not ${expected}`);

test('each kind of token is priced apart: the uncached input is what the cache reads and writes leave of the input', () => {
	// 1M input of which 600k read from the cache and 100k written to it: 300k uncached.
	const cost = costOf(usage(1_000_000, 10_000, 600_000, 100_000), prices);
	assert.equal(cost.unknown, false);
	near(cost.dollars, 0.3 * 3 + 0.01 * 15 + 0.6 * 0.3 + 0.1 * 3.75);
});

test('a missing price makes the cost unknown only when there are tokens of that kind; no prices at all is unknown', () => {
	const priced = costOf(usage(1000, 10), {input: 1, output: 2});
	assert.equal(priced.unknown, false);
	near(priced.dollars, (1000 * 1 + 10 * 2) / 1e6);
	const partly = costOf(usage(1000, 10, 500), {input: 1, output: 2});
	assert.equal(partly.unknown, true);
	near(partly.dollars, (500 * 1 + 10 * 2) / 1e6);
	assert.deepEqual(costOf(usage(1000, 10), undefined), {dollars: 0, unknown: true});
	assert.deepEqual(costOf(usage(0, 0), {}), {dollars: 0, unknown: false});
});

test('a free model costs 0, which is known; a price that is not a finite number counts as unknown', () => {
	assert.deepEqual(costOf(usage(5000, 50), {input: 0, output: 0}), {dollars: 0, unknown: false});
	assert.equal(costOf(usage(5000, 50), {input: Number.NaN, output: 0}).unknown, true);
});

test('a provider that counts more cached tokens than input never gives a negative cost', () => {
	near(costOf(usage(100, 0, 200), prices).dollars, (200 * 0.3) / 1e6);
});

test('sums stay unknown once a part is; words say unknown, never $0', () => {
	const total = addCost(addCost(NO_COST, {dollars: 0.5, unknown: false}), {dollars: 0, unknown: true});
	assert.deepEqual(total, {dollars: 0.5, unknown: true});
	assert.equal(formatCost(total), '$0.5000 + unknown');
	assert.equal(formatCost({dollars: 0, unknown: true}), 'unknown');
	assert.equal(formatCost({dollars: 0, unknown: false}), '$0.0000');
	assert.equal(formatCost({dollars: 0.001234, unknown: false}), '$0.0012');
	assert.equal(formatCost({dollars: 12.345, unknown: false}), '$12.35');
});
