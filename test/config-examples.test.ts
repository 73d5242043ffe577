import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {loadModelConfig} from '../source/core/config/load-config.js';
import {protocols} from '../source/core/providers/types.js';

const examples = fileURLToPath(new URL('../../config/examples', import.meta.url));

test('every shipped example config is valid, and there is one per protocol', () => {
	const files = readdirSync(examples).filter(name => name.endsWith('.json'));
	const seen = files.map(name => loadModelConfig(join(examples, name), true).config.protocol);
	assert.deepEqual([...seen].sort(), [...protocols].sort());
});
