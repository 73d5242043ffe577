import {test} from 'node:test';
import assert from 'node:assert/strict';
import {formatTokenCount} from '../../source/shared/token-count.js';

test('token counts one way: thousands as k, millions as M, 1024s read as makers say them, one decimal only below 10', () => {
	const cases: Array<[number, string]> = [
		[0, '0'],
		[999, '999'],
		[1000, '1k'],
		[1500, '1.5k'],
		[8192, '8k'],
		[32_768, '32k'],
		[128_000, '128k'],
		[131_072, '128k'],
		[384_000, '384k'],
		[400_000, '400k'],
		[999_499, '999k'],
		[999_500, '1M'],
		[1_000_000, '1M'],
		[1_047_576, '1M'],
		[1_048_576, '1M'],
		[1_500_000, '1.5M'],
		[2_097_152, '2M'],
	];
	assert.deepEqual(
		cases.map(([value]) => [value, formatTokenCount(value)]),
		cases,
	);
});
