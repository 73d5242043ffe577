// Headless without a model config (issue 16 item 5) and without a key of the
// zero-config order (zero-config.test.ts): -p and line mode print the exact
// commands that choose a model and exit 2, naming the provider whose key is
// already set, or how to give one a key.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {jsonEvents, makeSandbox, runCli} from '../helpers/cli.js';

test('-p and line mode without config.json and no key of the zero-config order: the exact commands, exit 2; the provider whose key is set is the one named', async () => {
	const box = makeSandbox();
	// A provider of the person's own models.json is never used on its own (docs/providers.md, "No config at all"): the commands name it.
	writeFileSync(join(box.configDir, 'models.json'), JSON.stringify({providers: {mocky: {baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'MOCKY_KEY', models: [{id: 'mock-one'}]}}}));
	const path = join(box.configDir, 'config.json');
	const ready = await runCli(['-p', 'hi', '-C', box.workspace], {env: {...box.env, MOCKY_KEY: 'sk-first-run-1'}});
	assert.equal(ready.code, 2);
	assert.match(ready.stderr, new RegExp(`^i: no model config: ${path.replaceAll(/[.*+?^${}()|[\]\\/]/g, '\\$&')} does not exist\\. Choose a model:\\n`));
	assert.match(ready.stderr, /\n {2}i --list-models\n/);
	assert.match(ready.stderr, /\n {2}i --model mocky\/mock-one -p hello\n/);
	assert.ok(ready.stderr.includes(`printf '%s\\n' '{"provider":"mocky","model":"mock-one"}' > ${path}`), ready.stderr);
	assert.match(ready.stderr, /\(mocky: key from MOCKY_KEY .*\)\. Or write a config by hand \(docs\/configuration.md\) and pass --config FILE\.\n$/);
	assert.doesNotMatch(ready.stderr, /sk-first-run-1|i auth login/);

	// No key anywhere: the first provider with a model, and how to give it a key.
	const none = await runCli(['-C', box.workspace, '--json'], {env: box.env, input: 'hi\n'});
	assert.equal(none.code, 2);
	assert.match(none.stderr, /\n {2}i auth login openai\n/);
	assert.match(none.stderr, /\(openai has no key yet: export OPENAI_API_KEY=… or run i auth login openai/);
	const [error] = jsonEvents(none.stdout).filter(event => event.type === 'error');
	assert.equal(error!.kind, 'usage');
	assert.match(error!.message, /Choose a model:/);
});

test('without config.json and with a broken models.json, the error says the catalogue could not be read and why, exit 2', async () => {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'models.json'), '{');
	const broken = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
	assert.equal(broken.code, 2);
	assert.match(broken.stderr, /^i: no model config: .*config\.json does not exist, and the catalogue could not be read \(.*not valid JSON.*\); create the config/);
});
