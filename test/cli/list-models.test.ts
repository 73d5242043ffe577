// `i --list-models` (issue 46 point 4): token counts one way, and a KEY
// column that says where a run's key would come from (the flag, auth.json,
// models.json's variable, the provider's variable) or that none would,
// never a value. The built CLI, a sandbox with auth.json and models.json.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {makeSandbox, runCli} from '../helpers/cli.js';

const SECRETS = ['sk-list-env-1', 'sk-list-stored-2', 'sk-list-models-3', 'sk-list-flag-4'];

function box() {
	const sandbox = makeSandbox();
	writeFileSync(join(sandbox.configDir, 'auth.json'), JSON.stringify({anthropic: {type: 'api_key', key: SECRETS[1]}}), {mode: 0o600});
	writeFileSync(
		join(sandbox.configDir, 'models.json'),
		JSON.stringify({
			providers: {
				team: {baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'TEAM_KEY', models: [{id: 'team-model', contextWindow: 1_048_576, maxTokens: 16_384}]},
				solo: {baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'SOLO_KEY', models: [{id: 'solo-model'}]},
			},
		}),
	);
	return {...sandbox, env: {...sandbox.env, OPENAI_API_KEY: SECRETS[0], TEAM_KEY: SECRETS[2]}};
}

/** The KEY cell of the first row of `provider`: the table's columns are padded, so it starts where the heading does. */
function keyColumn(stdout: string, provider: string): string | undefined {
	const lines = stdout.split('\n');
	const at = lines[0]!.indexOf('KEY');
	return lines.find(line => line.startsWith(`${provider} `))?.slice(at);
}

test('--list-models: CONTEXT and MAX OUT one way (1M, 400k, 32k), and KEY says where the key would come from', async () => {
	const sandbox = box();
	const plain = await runCli(['--list-models', '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(plain.code, 0, plain.stderr);
	assert.match(plain.stdout, /^openai +gpt-4\.1 +GPT-4\.1 \(Chat Completions\) +1M +32k /m);
	assert.match(plain.stdout, /^openai +gpt-5 +GPT-5 \(Responses\) +400k +128k /m);
	assert.match(plain.stdout, /^team +team-model +team-model +1M +16k /m);
	assert.doesNotMatch(plain.stdout, /\b1047576\b|\b32768\b/);
	assert.equal(keyColumn(plain.stdout, 'openai'), 'OPENAI_API_KEY');
	assert.equal(keyColumn(plain.stdout, 'anthropic'), 'auth.json');
	assert.equal(keyColumn(plain.stdout, 'team'), 'TEAM_KEY (models.json)');
	assert.equal(keyColumn(plain.stdout, 'solo'), 'none (SOLO_KEY not set)');
	assert.equal(keyColumn(plain.stdout, 'llama-cpp'), 'none needed');

	// --api-key goes to the provider --model names, and to no other row.
	const flagged = await runCli(['--list-models', '--json', '--model', 'solo/solo-model', '--api-key', SECRETS[3]!, '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(flagged.code, 0, flagged.stderr);
	const rows = JSON.parse(flagged.stdout) as Array<{provider: string; keySource: string | null; key: string}>;
	const of = (provider: string) => rows.find(row => row.provider === provider)!;
	assert.deepEqual(of('solo'), {...of('solo'), keySource: 'flag', key: '--api-key'});
	assert.deepEqual(
		['openai', 'anthropic', 'team', 'deepseek', 'llama-cpp'].map(id => of(id).keySource),
		['env', 'auth.json', 'models.json', null, 'anonymous'],
	);
	assert.equal(of('deepseek').key, 'none (DEEPSEEK_API_KEY not set)');
	for (const output of [plain.stdout, plain.stderr, flagged.stdout, flagged.stderr]) for (const secret of SECRETS) assert.ok(!output.includes(secret), secret);
});
