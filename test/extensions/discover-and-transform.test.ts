// registerResourcesDiscover and registerBeforeAgentStart handlers as the
// host calls them (spec/extensions.md §5): timeouts, limits and answer shapes.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {createBeforeAgentStart} from '../../source/core/extensions/before-agent-start.js';
import {discoverResources, MAX_DISCOVERED_PATHS} from '../../source/core/extensions/discover-resources.js';

const event = {reason: 'startup' as const, cwd: '/w'};
const hang = () => new Promise(() => {});

test('discovery: a handler that does not answer in time adds nothing and the others count; each list takes 256 paths, 257 are refused', async () => {
	const reports: string[] = [];
	const paths = (count: number) => Array.from({length: count}, (_, index) => `p${index}`);
	const found = await discoverResources(
		[
			{extension: 'slow', folder: '/slow', handler: hang},
			{extension: 'full', folder: '/full', handler: () => ({promptPaths: paths(MAX_DISCOVERED_PATHS)})},
			{extension: 'over', folder: '/over', handler: () => ({skillPaths: paths(MAX_DISCOVERED_PATHS + 1)})},
			{extension: 'none', folder: '/none', handler: () => undefined},
			{extension: 'absolute', folder: '/a', handler: async () => ({skillPaths: ['/elsewhere', 'here']})},
		],
		event,
		message => reports.push(message),
		50,
	);
	assert.equal(found.promptPaths.length, MAX_DISCOVERED_PATHS);
	assert.deepEqual(found.promptPaths[1], {path: '/full/p1', extension: 'full'});
	assert.deepEqual(found.skillPaths, [
		{path: '/elsewhere', extension: 'absolute'},
		{path: '/a/here', extension: 'absolute'},
	]);
	assert.deepEqual(reports, [
		'extension slow: ResourcesDiscover handler did not answer within 0.05 s; its paths are left out',
		`extension over: ResourcesDiscover handler answered field "skillPaths": at most ${MAX_DISCOVERED_PATHS} entries (an answer is {skillPaths?, promptPaths?, themePaths?}, lists of paths); its paths are left out`,
	]);
});

test('discovery: each handler gets its own copy of the event', async () => {
	const seen: unknown[] = [];
	const mutate = (given: any) => {
		seen.push(structuredClone(given));
		given.cwd = '/changed';
		return {};
	};

	await discoverResources(
		[
			{extension: 'a', folder: '/', handler: mutate},
			{extension: 'b', folder: '/', handler: mutate},
		],
		event,
		() => {},
	);
	assert.deepEqual(seen, [event, event]);
});

test('the system-prompt chain: a hanging or wrongly answering transform keeps the value before it; a list or a string is not an answer', async () => {
	const reports: string[] = [];
	const run = createBeforeAgentStart(
		[
			{extension: 'first', handler: (given: any) => ({systemPrompt: `${given.systemPrompt}+1`})},
			{extension: 'slow', handler: hang},
			{extension: 'list', handler: () => ['x']},
			{extension: 'text', handler: () => 'just text'},
			{extension: 'last', handler: (given: any) => ({systemPrompt: `${given.systemPrompt}+2`})},
		],
		message => reports.push(message),
		50,
	);
	assert.equal(await run({prompt: 'p', imageCount: 0, sessionId: 's', host: 'i', systemPrompt: 'S'}), 'S+1+2');
	assert.deepEqual(reports, [
		'extension slow: BeforeAgentStart transform did not answer within 0.05 s; the system prompt is kept',
		'extension list: BeforeAgentStart transform answered a list, not an object {systemPrompt}; the system prompt is kept',
		'extension text: BeforeAgentStart transform answered a string, not an object {systemPrompt}; the system prompt is kept',
	]);
});
