// The package's modules alone: every catalogue entry says where it was read
// and when, an alias names a model of its own provider, the bridge hands the
// request to the host's client with the module's wire and turns an alias
// into its model, the person's extra_body over the alias's fields.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import type {CompletionsWire, ProviderRequest, StreamingProviderIo} from 'i-agent/extension';
import {registration, resolveAlias} from '../src/bridge.js';
import {modules} from '../src/index.js';
import {deepseek} from '../src/modules/deepseek.js';

const request = (model: string, extra: Record<string, unknown> = {}): ProviderRequest => ({
	model,
	messages: [{role: 'user', content: 'hi'}],
	tools: [],
	maxTokens: null,
	extra,
	apiKey: 'k',
	baseUrl: null,
	headers: {},
});

test('every module names its catalogue’s source and the day it was read; model ids are unique within a module', () => {
	for (const module of modules) {
		assert.match(module.source.url, /^https:\/\//, module.id);
		assert.match(module.source.read, /^\d{4}-\d{2}-\d{2}$/, module.id);
		assert.ok(!Number.isNaN(Date.parse(module.source.read)), module.id);
		const ids = module.models.map(model => model.id);
		assert.equal(new Set(ids).size, ids.length, module.id);
		for (const model of module.models) assert.equal(model.provider, module.id);
	}

	assert.deepEqual(
		modules.map(module => module.id),
		['deepseek', 'openrouter', 'gemini', 'groq', 'mistral', 'xai', 'ollama', 'llama-cpp', 'proxy'],
	);
});

test('DeepSeek: the current models first, the old names as aliases that say so and name a current model', () => {
	assert.deepEqual(
		deepseek.models.map(model => model.id),
		['deepseek-flash', 'deepseek-v4-pro', 'deepseek-chat', 'deepseek-reasoner'],
	);
	for (const [old, alias] of Object.entries(deepseek.aliases ?? {})) {
		const entry = deepseek.models.find(model => model.id === old);
		assert.match(entry!.name, /Old name \(retired 2026-07-24\): sent as deepseek-flash/);
		assert.ok(deepseek.models.some(model => model.id === alias.model && !(alias.model in (deepseek.aliases ?? {}))));
	}

	assert.deepEqual(resolveAlias(deepseek, request('deepseek-chat')).extra, {thinking: {type: 'disabled'}});
	assert.deepEqual(resolveAlias(deepseek, request('deepseek-reasoner')).model, 'deepseek-flash');
	// The person's extra_body wins over the alias's fields.
	assert.deepEqual(resolveAlias(deepseek, request('deepseek-chat', {thinking: {type: 'enabled'}, temperature: 0})).extra, {thinking: {type: 'enabled'}, temperature: 0});
	assert.equal(resolveAlias(deepseek, request('deepseek-v4-pro')).model, 'deepseek-v4-pro');
});

test('a registration hands the request to io.completions with its wire and its endpoint', async () => {
	for (const module of modules) {
		const calls: Array<[ProviderRequest, CompletionsWire | undefined]> = [];
		const io = {
			completions: async (req: ProviderRequest, wire?: CompletionsWire) => {
				calls.push([req, wire]);
				return {role: 'assistant' as const, content: `from ${module.id}`};
			},
		} as unknown as StreamingProviderIo;
		const answer = await registration(module).request(request('m'), io);
		assert.deepEqual(answer, {role: 'assistant', content: `from ${module.id}`});
		assert.equal(calls.length, 1);
		assert.deepEqual(calls[0]![1], {...module.wire, ...(module.baseUrl === undefined ? {} : {baseUrl: module.baseUrl})});
	}
});
