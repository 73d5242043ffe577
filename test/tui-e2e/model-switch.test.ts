// /provider and /model in a real chat screen (pseudo-terminal) against the
// mock provider: a switch to a provider without a key fails and keeps the
// session and config.json as they were; the filterable list marks the
// provider whose key resolves and the current one, a choice switches the
// running session (the next request goes to the new model with its own
// key) and leaves config.json as it was; /model --default refuses to save
// over the config's protocol endpoint (the file byte for byte unchanged)
// and saves into a catalogue config keeping its other keys; /model ID
// switches within the provider; ModelSelect fires once per switch taken;
// /cost reports.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox} from '../helpers/cli.js';
import {startChat} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const ALPHA_KEY = 'sk-alpha-pty-4141';

test('/provider and /model: without auth nothing changes; with it the session switches and config.json stays; --default saves only where no field goes; ModelSelect fires', async () => {
	const box = makeSandbox();
	const log = join(box.root, 'model-select.log');
	writeFileSync(log, '');
	const extension = join(box.root, 'watch.mjs');
	writeFileSync(
		extension,
		`import {appendFileSync} from 'node:fs';\nexport default function register(api) { api.registerEventHandler('ModelSelect', event => appendFileSync(${JSON.stringify(log)}, JSON.stringify(event) + '\\n')); }\n`,
	);
	const base = mock.baseUrl('openai');
	writeFileSync(
		join(box.configDir, 'models.json'),
		JSON.stringify({
			providers: {
				alpha: {baseUrl: base, apiKey: 'ALPHA_KEY', models: [{id: 'alpha-one', cost: {input: 1, output: 2}}, {id: 'alpha-two'}]},
				beta: {baseUrl: base, apiKey: 'BETA_KEY', models: [{id: 'beta-one'}]},
			},
		}),
	);
	const {run} = await startChat(mock, {box, args: ['--extension', extension], env: {ALPHA_KEY, BETA_KEY: ''}, rows: 40, cols: 220});
	const configFile = join(box.configDir, 'config.json');
	try {
		const original = readFileSync(configFile, 'utf8');
		// No key for beta: the switch fails, says why, and changes nothing.
		run.type('/provider beta\r');
		await run.waitFor(screen => screen.includes('the switch failed; the session keeps mock-model'), 'the failed switch');
		assert.match(run.screen().join(' ').replaceAll(/\s+/g, ' '), /no API key for beta/);
		assert.equal(readFileSync(configFile, 'utf8'), original);

		// The list: alpha marked (its key resolves), filtered by typing.
		run.type('/provider\r');
		await run.waitFor(screen => screen.includes('filter ›') && screen.includes('● alpha'), 'the provider list');
		// Typed the moment the list shows: the list hears keys from its first frame (once it lost them until its effect ran).
		run.type('bet');
		await run.waitFor(screen => screen.includes('filter › bet'), 'the list filtered to beta');
		assert.ok(
			run.screen().some(row => /beta 1 model/.test(row) && !row.includes('●')),
			run.screen().join('\n'),
		);
		// Leave the list and open it again to filter for alpha.
		run.type('\u001B');
		await run.waitFor(screen => !screen.includes('filter › bet'), 'the list closed');
		run.type('/provider\r');
		await run.waitFor(screen => screen.includes('filter ›') && screen.includes('● alpha'), 'the provider list again');
		run.type('alp');
		await run.waitFor(screen => screen.includes('filter › alp') && !/beta 1 model/.test(screen), 'the filtered list');
		run.type('\r');
		await run.waitFor(screen => screen.includes('now alpha/alpha-one for this session'), 'the switch');
		assert.equal(readFileSync(configFile, 'utf8'), original, 'a switch is for the session: config.json is not written');

		// Saving it as the default would delete the config's protocol endpoint: refused, the file as it was.
		run.type('/model --default\r');
		await run.waitFor(screen => screen.includes('not saved as the default'), 'the refused save');
		assert.match(run.screen().join(' ').replaceAll(/\s+/g, ' '), /would delete "protocol", "base_url", "api_key_env"/);
		assert.equal(readFileSync(configFile, 'utf8'), original);

		// The running session now asks alpha, with alpha's key.
		mock.enqueue({text: 'from alpha', usage: {input: 1000, output: 100}});
		const from = mock.requests.length;
		run.type('hello\r');
		await run.waitFor(screen => screen.includes('from alpha'), 'the answer');
		const [request] = mock.requests.slice(from);
		assert.equal(request!.body.model, 'alpha-one');
		assert.equal(request!.headers.authorization, `Bearer ${ALPHA_KEY}`);
		await run.waitFor(screen => screen.includes('cost $0.0012'), 'the session cost on the status line');
		run.type('/cost\r');
		await run.waitFor(screen => screen.includes('this session: $0.0012 over 1 request'), '/cost');

		// /model ID within the provider; an unknown one names the nearest and keeps alpha-one.
		run.type('/model alpha-tw\r');
		await run.waitFor(screen => screen.includes('the switch failed; the session keeps alpha/alpha-one'), 'the unknown model');
		// A config that chooses by catalogue takes the default, every other key kept.
		writeFileSync(configFile, `${JSON.stringify({provider: 'alpha', model: 'alpha-one', max_retries: 0, someday: {kept: true}}, null, 2)}\n`);
		run.type('/model alpha-two --default\r');
		await run.waitFor(screen => screen.includes('alpha/alpha-two is the default now'), 'the model switch and its save');
		assert.deepEqual(JSON.parse(readFileSync(configFile, 'utf8')), {provider: 'alpha', model: 'alpha-two', max_retries: 0, someday: {kept: true}});
		// The list marks the model in use and opens on it.
		run.type('/model\r');
		await run.waitFor(screen => screen.includes('filter ›') && /❯ ● alpha-two \(current\)/.test(screen), 'the model list on the current one');
		run.type('\u001B');
		await run.waitFor(screen => !screen.includes('filter ›'), 'Esc closes the model list');
		mock.enqueue({text: 'second answer'});
		const next = mock.requests.length;
		run.type('again\r');
		await run.waitFor(screen => screen.includes('second answer'), 'the second answer');
		assert.equal(mock.requests[next]!.body.model, 'alpha-two');

		// /provider remove: the one in use is refused; beta (models.json's own) goes; the package's says how it goes.
		run.type('/provider remove alpha\r');
		await run.waitFor(screen => screen.includes('alpha is the provider this session uses'), 'the refusal');
		run.type('/provider remove beta\r');
		await run.waitFor(screen => screen.includes('removed providers.beta from'), 'the removal');
		assert.deepEqual(Object.keys(JSON.parse(readFileSync(join(box.configDir, 'models.json'), 'utf8')).providers), ['alpha']);
		run.type('/provider remove deepseek\r');
		await run.waitFor(screen => screen.includes('"providerPackage": false'), 'the package provider');
		run.type('/provider\r');
		await run.waitFor(screen => screen.includes('filter ›') && screen.includes('● alpha (current)'), 'the list again, alpha current');
		assert.ok(!run.screen().some(row => /beta 1 model/.test(row)), 'beta is gone from the list');
		run.type('\u001B');
		await run.waitFor(screen => !screen.includes('filter ›'), 'Esc closes the list');
	} finally {
		await run.close();
	}

	const events = readFileSync(log, 'utf8')
		.trim()
		.split('\n')
		.map(line => JSON.parse(line));
	assert.deepEqual(
		events.map(event => [event.provider, event.model, event.previous.provider, event.previous.model, event.source]),
		[
			['alpha', 'alpha-one', 'openai', 'mock-model', '/provider alpha'],
			['alpha', 'alpha-two', 'alpha', 'alpha-one', '/model alpha-two'],
		],
	);
	assert.ok(!readFileSync(log, 'utf8').includes(ALPHA_KEY));
});
