import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {loadModelConfig} from '../source/core/config/load-config.js';
import {protocols} from '../source/core/providers/types.js';
import {loadModuleConfig} from '../source/core/config/module-config.js';
import {webConfigSchema} from '../workers/web/config.js';

const examples = fileURLToPath(new URL('../../config/examples', import.meta.url));

test('every shipped example config is valid, and there is one per protocol', () => {
	const files = readdirSync(examples).filter(name => name.endsWith('.json') && !name.endsWith('.config.json'));
	const seen = files.map(name => loadModelConfig(join(examples, name), true).config.protocol);
	assert.deepEqual([...seen].sort(), [...protocols].sort());
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
