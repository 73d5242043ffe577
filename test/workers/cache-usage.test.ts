// The cache module's accounting of an extension provider's usage (the
// host's own shape), beside the built-in protocols' own shapes.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {cacheUsage} from '../../workers/cache/usage.js';

test("an extension provider's (and a provider worker's) usage counts in the host's shape: input with its cached parts; anything else is unknown, never zero", () => {
	assert.deepEqual(cacheUsage('local-openai', {input: 100, output: 9, cacheRead: 60, cacheWrite: 0}), {input: 100, cache_read: 60, cache_write: 0});
	assert.deepEqual(cacheUsage('local-openai', {input: 100, output: 9}), {input: 100, cache_read: 0, cache_write: 0});
	assert.deepEqual(cacheUsage('local-openai', {input: 100, output: 9, cacheRead: 60, cacheWrite: 40}), {input: 100, cache_read: 60, cache_write: 40});
	assert.equal(cacheUsage('local-openai', {input: 100, output: 9, cacheRead: 60, cacheWrite: 41}), null, 'more cached than there was input');
	assert.equal(cacheUsage('local-openai', {input: -1, output: 9}), null);
	assert.equal(cacheUsage('local-openai', {prompt_tokens: 100}), null);
	// A provider worker's answer, in its snake-case fields.
	assert.deepEqual(cacheUsage('my-worker-protocol', {input: 50, output: 2, cache_read: 30}), {input: 50, cache_read: 30, cache_write: 0});
	// The built-in protocols keep their own accounting.
	assert.deepEqual(cacheUsage('openai', {prompt_tokens: 100, prompt_tokens_details: {cached_tokens: 20}}), {input: 100, cache_read: 20, cache_write: 0});
	assert.equal(cacheUsage('openai', {input: 100, cacheRead: 20}), null);
});
