// Saving a model as the default in config.json and removing a models.json
// entry: other keys kept in place, the file's indentation kept, no field
// ever deleted (a protocol config is refused), atomic writes, and files that
// are not what they should be refused without being touched.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {saveModelChoice} from '../../source/core/config/save-model-choice.js';
import {removeModelsEntry} from '../../source/core/catalogue/remove-models-entry.js';

function inTemp(body: (dir: string) => Promise<void>): Promise<void> {
	const dir = mkdtempSync(join(tmpdir(), 'i-save-'));
	return body(dir).finally(() => rmSync(dir, {recursive: true, force: true}));
}

test('saveModelChoice keeps every other key (unknown ones too) in place and the indentation; creates a missing file', async () =>
	inTemp(async dir => {
		const path = join(dir, 'config.json');
		writeFileSync(path, '{\n\t"max_tokens": 100,\n\t"provider": "old-p",\n\t"model": "old",\n\t"someday_field": {"kept": [1, 2]},\n\t"plugins": ["a.json"]\n}\n');
		const saved = await saveModelChoice(path, {provider: 'deepseek', model: 'deepseek-chat'});
		assert.deepEqual(saved, {path, created: false});
		assert.equal(
			readFileSync(path, 'utf8'),
			'{\n\t"max_tokens": 100,\n\t"provider": "deepseek",\n\t"model": "deepseek-chat",\n\t"someday_field": {\n\t\t"kept": [\n\t\t\t1,\n\t\t\t2\n\t\t]\n\t},\n\t"plugins": [\n\t\t"a.json"\n\t]\n}\n',
		);
		writeFileSync(path, '{"model": "x", "provider": "a", "budget": {"window": 1000}}');
		await saveModelChoice(path, {provider: 'b', model: 'y'});
		assert.equal(readFileSync(path, 'utf8'), '{"model":"y","provider":"b","budget":{"window":1000}}');
		const fresh = join(dir, 'sub', 'config.json');
		assert.equal((await saveModelChoice(fresh, {provider: 'p', model: 'm'})).created, true);
		assert.deepEqual(JSON.parse(readFileSync(fresh, 'utf8')), {provider: 'p', model: 'm'});
	}));

test('saveModelChoice never deletes a field of a protocol config: a custom endpoint is refused, naming its fields and the way out, and the file stays byte for byte', async () =>
	inTemp(async dir => {
		const path = join(dir, 'config.json');
		for (const text of [
			'{\n  "protocol": "openai",\n  "base_url": "http://127.0.0.1:8080/v1",\n  "api_key_env": "LLAMA_KEY",\n  "model": "local",\n  "extra": true\n}\n',
			'{"protocol": "deepseek", "model": "deepseek-chat"}',
			'{"api_key_env": "K"}',
		]) {
			writeFileSync(path, text);
			const fields = Object.keys(JSON.parse(text))
				.filter(key => ['protocol', 'base_url', 'api_key_env'].includes(key))
				.map(key => `"${key}"`)
				.join(', ');
			await assert.rejects(saveModelChoice(path, {provider: 'llama-cpp', model: 'local'}), (error: Error) => {
				assert.ok(error.message.includes(`saving llama-cpp/local there would delete ${fields}`), error.message);
				assert.match(error.message, /not saved and the file is unchanged; to make it the default, edit the file yourself \(or describe your endpoint as a provider in models\.json/);
				return true;
			});
			assert.equal(readFileSync(path, 'utf8'), text);
		}
	}));

test('saveModelChoice refuses a broken file, a non-object and a worker binding, leaving each as it was', async () =>
	inTemp(async dir => {
		const path = join(dir, 'config.json');
		for (const [text, error] of [
			['{"model": ', /not valid JSON .*the choice was not saved; fix the file first/],
			['[1]', /not a JSON object/],
			['{"provider": {"exec": ["w"]}, "protocol": "x", "model": "m"}', /"provider" binds a provider worker/],
		] as const) {
			writeFileSync(path, text);
			await assert.rejects(saveModelChoice(path, {provider: 'p', model: 'm'}), error);
			assert.equal(readFileSync(path, 'utf8'), text);
		}
	}));

test('removeModelsEntry removes one provider and keeps the rest; false for an id it lacks or a missing file; a broken file is refused', async () =>
	inTemp(async dir => {
		const path = join(dir, 'models.json');
		assert.equal(await removeModelsEntry(path, 'x'), false);
		writeFileSync(path, '{\n    "providers": {\n        "a": {"baseUrl": "http://a/v1"},\n        "b": {"apiKey": "B"}\n    },\n    "note": 1\n}\n');
		assert.equal(await removeModelsEntry(path, 'c'), false);
		assert.equal(await removeModelsEntry(path, 'a'), true);
		assert.equal(readFileSync(path, 'utf8'), '{\n    "providers": {\n        "b": {\n            "apiKey": "B"\n        }\n    },\n    "note": 1\n}\n');
		writeFileSync(path, '{"providers": [');
		await assert.rejects(removeModelsEntry(path, 'b'), /not valid JSON.*nothing was removed/);
		writeFileSync(path, '{"providers": []}');
		await assert.rejects(removeModelsEntry(path, 'b'), /no "providers" object/);
	}));
