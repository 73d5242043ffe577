import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {join, resolve} from 'node:path';
import {resolveBuiltin} from '../source/core/plugins/builtin-descriptor.js';
import {fileURLToPath} from 'node:url';
import {loadModelConfig} from '../source/core/config/load-config.js';
import {protocols} from '../source/core/providers/types.js';
import {loadModuleConfig} from '../source/core/config/module-config.js';
import {webConfigSchema} from '../workers/web/config.js';

const examples = fileURLToPath(new URL('../../config/examples', import.meta.url));

test('every shipped example config is valid, and there is one per protocol', () => {
	const files = readdirSync(examples).filter(name => name.endsWith('.json') && !name.endsWith('.config.json'));
	const seen = new Set(files.map(name => loadModelConfig(join(examples, name), true).config.protocol));
	assert.deepEqual([...seen].sort(), [...protocols].sort());
	// The base configs are named for their protocol; variants (deepseek.smoke.json) for it and their purpose.
	for (const protocol of protocols) assert.ok(files.includes(`${protocol}.json`), `${protocol}.json`);
});

/** What an API key looks like (OpenAI, DeepSeek, Anthropic, OpenRouter style) or any long unbroken token. */
const keyLike = /\b(sk-[A-Za-z0-9_-]{8,}|sk-ant-[A-Za-z0-9_-]{8,}|[A-Za-z0-9_-]{40,})\b/;

test('no example config names a key value: keys are only referenced by variable name', async () => {
	const files = readdirSync(examples).filter(name => name.endsWith('.json'));
	for (const file of files) {
		const text = await readFile(join(examples, file), 'utf8');
		assert.doesNotMatch(text, keyLike, file);
		if (file.endsWith('.config.json')) continue;
		const {config} = loadModelConfig(join(examples, file), true);
		assert.match(config.api_key_env ?? '', /^[A-Z][A-Z0-9_]*_API_KEY$/, `${file}: api_key_env names a variable`);
		assert.ok(!JSON.stringify(config.extra_body).match(/api[_-]?key|secret|password|authorization|bearer/i), `${file}: no credential in extra_body`);
	}
});

test('the smoke examples name only DEEPSEEK_TEST_API_KEY and load the smoke profiles, which resolve', async () => {
	const smoke = loadModelConfig(join(examples, 'deepseek.smoke.json'), true).config;
	const thinking = loadModelConfig(join(examples, 'deepseek.thinking-vision.json'), true).config;
	for (const [config, profile] of [
		[smoke, 'smoke'],
		[thinking, 'smoke-thinking'],
	] as const) {
		assert.equal(config.protocol, 'deepseek');
		assert.equal(config.api_key_env, 'DEEPSEEK_TEST_API_KEY');
		// A real request costs money: one request, never sent again.
		assert.equal(config.max_retries, 0);
		assert.equal(config.max_steps, 1);
		assert.equal(config.plugins.length, 1);
		const manifest = resolve(examples, config.plugins[0]!);
		const json: unknown = JSON.parse(await readFile(manifest, 'utf8'));
		assert.deepEqual(json, {builtin_profile: profile, tools: []});
		const resolved = await resolveBuiltin(json, manifest, examples, ['i']);
		assert.deepEqual(resolved.warnings, []);
		assert.ok(resolved.manifest.hooks.every(hook => hook.module === profile));
		assert.deepEqual(resolved.manifest.tools, []);
	}
});

/** Module config examples are named `<module>.config.json` and checked against that module's schema. */
const moduleSchemas: Record<string, Parameters<typeof loadModuleConfig>[1]> = {web: webConfigSchema};

test('every shipped module config example (<module>.config.json) is valid for its module', async () => {
	const files = readdirSync(examples).filter(name => name.endsWith('.config.json'));
	assert.ok(files.includes('web.config.json'));
	for (const file of files) {
		const module = file.slice(0, -'.config.json'.length);
		const schema = moduleSchemas[module];
		assert.ok(schema, `${file}: no schema known for module "${module}"`);
		const loaded = await loadModuleConfig(module, schema, {explicit: join(examples, file), dirs: {config_dir: examples, data_dir: examples, cache_dir: examples, runtime_dir: examples}});
		assert.ok(loaded.found, file);
	}
});
