// The chat screen's first-run setup as a flow (first-run-setup.ts), without
// a terminal: a scripted screen answers each list and the key field, real
// files in a temp config folder. Each branch: the variable set (marked
// first, nothing stored), a typed key (auth.json 0600, never in config.json
// or a notice), a key that cannot be one, an anonymous provider (no key
// step), auth.json's own entry, a broken auth.json, Esc back each step and
// out, a catalogue that cannot be read, a folder that cannot be written
// (nothing half-stored, retry keeps the key), a config.json that appeared
// meanwhile, and leaving by the signal.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {buildCatalogue} from '../../source/core/catalogue/build-catalogue.js';
import {Catalogue} from '../../source/core/catalogue/catalogue.js';
import {readModelsFiles} from '../../source/core/catalogue/models-file.js';
import {firstRunConfig, runFirstRunSetup, type FirstRunPlace, type FirstRunScreen} from '../../source/tui/first-run-setup.js';
import type {ChoiceRequest} from '../../source/tui/brokers/chooser-broker.js';
import type {KeyRequest} from '../../source/tui/brokers/key-broker.js';
import {makeUnwritable} from '../helpers/unwritable.js';

type Asked = {kind: 'choose'; request: ChoiceRequest} | {kind: 'key'; request: KeyRequest};
/** One answer of the script: a value, null (Esc), or a check of what was asked that returns the answer. */
type Answer = string | null | ((asked: Asked) => string | null);

interface Scripted extends FirstRunScreen {
	asked: Asked[];
	notices: Array<{level: string; text: string}>;
}

/** A screen that answers from `answers` in order and records everything it was asked and told; asked once more than scripted, it fails the test. */
function scripted(answers: Answer[]): Scripted {
	const queue = [...answers];
	const asked: Asked[] = [];
	const notices: Array<{level: string; text: string}> = [];
	const next = (question: Asked) => {
		asked.push(question);
		if (queue.length === 0) throw new Error(`asked more than scripted: ${JSON.stringify(question.request.title)}`);
		const answer = queue.shift()!;
		return typeof answer === 'function' ? answer(question) : answer;
	};

	return {
		asked,
		notices,
		choose: async request => next({kind: 'choose', request}),
		askKey: async request => next({kind: 'key', request}),
		notice: (level, text) => notices.push({level, text}),
	};
}

const ALPHA_KEY = 'sk-alpha-secret-7788';

/** A config folder with a models.json: alpha (key variable ALPHA_KEY, two models with prices and a window) and local (anonymous); the built-ins beside them. */
function place(env: NodeJS.ProcessEnv = {}, overrides: Partial<FirstRunPlace> = {}): FirstRunPlace & {root: string} {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-first-run-')));
	const configDir = join(root, 'config');
	const workspace = join(root, 'workspace');
	mkdirSync(configDir);
	mkdirSync(workspace);
	writeFileSync(
		join(configDir, 'models.json'),
		JSON.stringify({
			providers: {
				alpha: {baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'ALPHA_KEY', models: [{id: 'alpha-one', contextWindow: 128_000, cost: {input: 1, output: 2}}, {id: 'alpha-two'}]},
				local: {baseUrl: 'http://127.0.0.1:9/v1', models: [{id: 'local-model'}]},
			},
		}),
	);
	return {
		root,
		configPath: join(configDir, 'config.json'),
		configDir,
		env,
		signal: new AbortController().signal,
		loadCatalogue: async () => buildCatalogue([], await readModelsFiles(configDir, workspace)),
		...overrides,
	};
}

const optionValues = (asked: Asked) => (asked.kind === 'choose' ? asked.request.options.map(option => option.value) : []);
const optionOf = (asked: Asked, value: string) => (asked.kind === 'choose' ? asked.request.options.find(option => option.value === value) : undefined);

test('with the variable set: its provider is marked and first, the model list shows window and prices, the variable is offered; config.json gets the choice and the init profile, mode 0600, nothing stored', async () => {
	const where = place({ALPHA_KEY});
	const screen = scripted([
		asked => {
			assert.deepEqual(optionValues(asked).slice(0, 2), ['alpha', 'local'], 'the ready one first, then the anonymous one');
			assert.equal(optionOf(asked, 'alpha')!.marked, true);
			assert.match(optionOf(asked, 'alpha')!.description!, /key from ALPHA_KEY/);
			assert.equal(optionOf(asked, 'local')!.marked, false, 'an anonymous provider is not marked as having a key');
			assert.match(optionOf(asked, 'local')!.description!, /no key needed/);
			assert.match(optionOf(asked, 'openai')!.description!, /no key yet: export OPENAI_API_KEY/);
			return 'alpha';
		},
		asked => {
			assert.deepEqual(optionValues(asked), ['alpha-one', 'alpha-two']);
			assert.match(optionOf(asked, 'alpha-one')!.description!, /128k context · in \$1 out \$2 \/M/);
			assert.match(optionOf(asked, 'alpha-two')!.description!, /in \? out \? \/M/, 'unknown prices say so');
			return 'alpha-one';
		},
		asked => {
			assert.deepEqual(optionValues(asked), ['env', 'type']);
			assert.equal(optionOf(asked, 'env')!.label, 'the environment variable ALPHA_KEY');
			assert.equal(optionOf(asked, 'env')!.marked, true);
			return 'env';
		},
	]);
	const outcome = await runFirstRunSetup(where, screen);
	assert.equal(outcome.kind, 'configured');
	assert.deepEqual(JSON.parse(readFileSync(where.configPath, 'utf8')), {provider: 'alpha', model: 'alpha-one', plugins: ['builtin.json']});
	assert.deepEqual(JSON.parse(readFileSync(where.configPath, 'utf8')), firstRunConfig({provider: 'alpha', model: 'alpha-one'}));
	assert.equal(statSync(where.configPath).mode & 0o777, 0o600);
	for (const file of ['plugins.json', 'bindings.json', 'builtin.json']) assert.ok(existsSync(join(where.configDir, file)), `${file} written`);
	assert.equal(existsSync(join(where.configDir, 'auth.json')), false, 'nothing is stored for a key in the environment');
	assert.deepEqual(outcome.kind === 'configured' ? outcome.written.map(path => path.slice(where.configDir.length + 1)) : [], ['plugins.json', 'bindings.json', 'builtin.json', 'config.json']);
	assert.deepEqual(screen.notices, []);
});

test('a typed key: the variable is not offered when unset and the list says which to export; the key goes to auth.json (0600), never to config.json or a notice', async () => {
	const where = place({});
	const typed = 'sk-typed-key-0042';
	const screen = scripted([
		'alpha',
		'alpha-two',
		asked => {
			assert.deepEqual(optionValues(asked), ['type'], 'no variable to offer: ALPHA_KEY is not set');
			assert.match(asked.kind === 'choose' ? (asked.request.legend ?? '') : '', /export ALPHA_KEY=… and start i again/);
			return 'type';
		},
		asked => {
			assert.equal(asked.kind, 'key');
			assert.match(asked.request.title, /API key for alpha/);
			return `  ${typed}  `;
		},
	]);
	const outcome = await runFirstRunSetup(where, screen);
	assert.equal(outcome.kind, 'configured');
	const auth = JSON.parse(readFileSync(join(where.configDir, 'auth.json'), 'utf8'));
	assert.deepEqual(auth, {alpha: {type: 'api_key', key: typed}}, 'stored trimmed, as i auth login stores it');
	assert.equal(statSync(join(where.configDir, 'auth.json')).mode & 0o777, 0o600);
	const config = readFileSync(where.configPath, 'utf8');
	assert.ok(!config.includes(typed));
	assert.deepEqual(JSON.parse(config), {provider: 'alpha', model: 'alpha-two', plugins: ['builtin.json']});
	assert.ok(!JSON.stringify(screen.notices).includes(typed));
});

test('a key that cannot be one is refused naming why (not the key) and asked again; Esc goes back one step at a time, and out from the first; nothing is written', async () => {
	const where = place({});
	const screen = scripted([
		'alpha',
		'alpha-one',
		'type',
		'two words',
		'',
		// The field again, then Esc: back to the key's sources, the model, the provider, and out.
		null,
		null,
		null,
		asked => {
			assert.match(asked.request.title, /1 of 3: a provider/, 'back at the first step');
			return null;
		},
	]);
	const outcome = await runFirstRunSetup(where, screen);
	assert.equal(outcome.kind, 'left');
	assert.deepEqual(
		screen.asked.map(asked => (asked.kind === 'key' ? 'key' : asked.request.title.replace(/ \(.*\)$/, ''))),
		[
			'Set up i · 1 of 3: a provider',
			'Set up i · 2 of 3: a model of alpha',
			'Set up i · 3 of 3: the key for alpha',
			'key',
			'key',
			'key',
			'Set up i · 3 of 3: the key for alpha',
			'Set up i · 2 of 3: a model of alpha',
			'Set up i · 1 of 3: a provider',
		],
	);
	assert.deepEqual(
		screen.notices.map(notice => notice.level),
		['warning', 'warning'],
	);
	assert.match(screen.notices[0]!.text, /spaces or control characters/);
	assert.ok(!screen.notices[0]!.text.includes('two words'));
	assert.match(screen.notices[1]!.text, /no key was given/);
	assert.deepEqual(outcome.kind === 'left' ? outcome.written : null, []);
	assert.ok(outcome.kind === 'left' && outcome.built !== undefined, 'the catalogue read goes back for the commands to print');
	assert.equal(existsSync(where.configPath), false);
	assert.equal(existsSync(join(where.configDir, 'auth.json')), false);
});

test('an anonymous provider has no key step: Esc on its model goes back to the providers; its choice is saved after the model', async () => {
	const where = place({});
	const screen = scripted([
		'local',
		asked => {
			assert.match(asked.request.title, /2 of 2: a model of local/);
			return null;
		},
		'local',
		'local-model',
	]);
	const outcome = await runFirstRunSetup(where, screen);
	assert.equal(outcome.kind, 'configured');
	assert.equal(screen.asked.length, 4);
	assert.deepEqual(JSON.parse(readFileSync(where.configPath, 'utf8')), {provider: 'local', model: 'local-model', plugins: ['builtin.json']});
});

test("auth.json's own entry is offered first and wins over a variable that is also set; choosing it keeps auth.json as it was", async () => {
	const where = place({ALPHA_KEY});
	const auth = join(where.configDir, 'auth.json');
	writeFileSync(auth, `${JSON.stringify({alpha: {type: 'api_key', key: 'sk-stored-1'}})}\n`, {mode: 0o600});
	const before = readFileSync(auth, 'utf8');
	const screen = scripted([
		'alpha',
		'alpha-one',
		asked => {
			assert.deepEqual(optionValues(asked), ['auth', 'type'], 'the variable is not offered: auth.json would be used first');
			assert.match(asked.kind === 'choose' ? (asked.request.legend ?? '') : '', /ALPHA_KEY is set too, but the key in auth.json is used first/);
			assert.match(optionOf(asked, 'type')!.description!, /replacing the key there/);
			return 'auth';
		},
	]);
	assert.equal((await runFirstRunSetup(where, screen)).kind, 'configured');
	assert.equal(readFileSync(auth, 'utf8'), before);
});

test('a broken auth.json: the key step names it and offers no way to store a key there; the variable still can be chosen', async () => {
	const where = place({ALPHA_KEY});
	writeFileSync(join(where.configDir, 'auth.json'), '{not json', {mode: 0o600});
	const screen = scripted([
		'alpha',
		'alpha-one',
		asked => {
			assert.deepEqual(optionValues(asked), ['env']);
			return 'env';
		},
	]);
	assert.equal((await runFirstRunSetup(where, screen)).kind, 'configured');
	assert.equal(screen.notices.length, 1);
	assert.match(screen.notices[0]!.text, new RegExp(`auth file ${join(where.configDir, 'auth.json')}: not valid JSON`));
	assert.equal(readFileSync(join(where.configDir, 'auth.json'), 'utf8'), '{not json', 'never written over');
});

test('a catalogue that cannot be read is said with its reason and a retry; once fixed, the setup goes on; Esc there leaves', async () => {
	let reads = 0;
	const base = place({ALPHA_KEY});
	const where = {
		...base,
		loadCatalogue: async () => {
			reads += 1;
			if (reads === 1) throw new Error(`models.json ${join(base.configDir, 'models.json')}: not valid JSON`);
			return base.loadCatalogue();
		},
	};
	const screen = scripted([
		asked => {
			assert.deepEqual(optionValues(asked), ['retry']);
			return 'retry';
		},
		'alpha',
		'alpha-one',
		'env',
	]);
	assert.equal((await runFirstRunSetup(where, screen)).kind, 'configured');
	assert.equal(reads, 2);
	assert.match(screen.notices[0]!.text, /the catalogue could not be read \(models\.json .*models\.json: not valid JSON\); fix the file it names/);

	const failing = {...place({}), loadCatalogue: async () => Promise.reject(new Error('broken'))};
	const left = await runFirstRunSetup(failing, scripted([null]));
	assert.deepEqual(left, {kind: 'left', built: undefined, written: []});
});

test('a folder that cannot be written: the error names the file and the fix, nothing is half-stored, and "try again" keeps the typed key', async t => {
	const where = place({});
	const undo = makeUnwritable(where.configDir);
	if (!undo) {
		t.skip('this machine lets every write through (root without chattr)');
		return;
	}

	const typed = 'sk-retry-key-5151';
	let restore = undo;
	try {
		const screen = scripted([
			'alpha',
			'alpha-one',
			'type',
			typed,
			asked => {
				assert.deepEqual(optionValues(asked), ['retry']);
				assert.equal(existsSync(join(where.configDir, 'auth.json')), false, 'the key is not stored half-way');
				restore();
				restore = () => {};
				return 'retry';
			},
		]);
		const outcome = await runFirstRunSetup(where, screen);
		assert.equal(outcome.kind, 'configured');
		assert.equal(screen.notices.length, 1);
		assert.equal(screen.notices[0]!.level, 'error');
		assert.match(screen.notices[0]!.text, new RegExp(`the key could not be stored in ${join(where.configDir, 'auth.json')} .*: make ${where.configDir} writable, or set I_CONFIG_DIR`));
		assert.ok(!screen.notices[0]!.text.includes(typed));
		assert.deepEqual(JSON.parse(readFileSync(join(where.configDir, 'auth.json'), 'utf8')), {alpha: {type: 'api_key', key: typed}}, 'retried with the key typed before');
	} finally {
		restore();
	}
});

test('init failing is said naming the folder; Esc on the retry goes back to the key step, and leaving then reports what was written', async () => {
	const base = place({ALPHA_KEY});
	const where = {
		...base,
		writeProfile: async () => {
			throw Object.assign(new Error(`EACCES: permission denied, open '${join(base.configDir, 'plugins.json')}'`), {code: 'EACCES'});
		},
	};
	const screen = scripted(['alpha', 'alpha-one', 'type', 'sk-stored-before-9', null, null, null, null]);
	const outcome = await runFirstRunSetup(where, screen);
	assert.equal(outcome.kind, 'left');
	assert.match(screen.notices[0]!.text, new RegExp(`the plugin files of the init profile \\(i --runtime init\\) could not be written in ${base.configDir} \\(EACCES`));
	assert.deepEqual(outcome.kind === 'left' ? outcome.written : null, [join(base.configDir, 'auth.json')], 'the key stored before the failure is said');
	assert.equal(existsSync(base.configPath), false, 'no config.json: the next start runs the setup again');
});

test('a config.json that appeared while the setup ran is kept and used, and said so', async () => {
	const base = place({ALPHA_KEY});
	const theirs = `${JSON.stringify({provider: 'openai', model: 'gpt-4.1'})}\n`;
	const where = {
		...base,
		writeProfile: async () => {
			writeFileSync(base.configPath, theirs);
			return [];
		},
	};
	const screen = scripted(['alpha', 'alpha-one', 'env']);
	const outcome = await runFirstRunSetup(where, screen);
	assert.equal(outcome.kind === 'configured' ? outcome.config : null, 'appeared');
	assert.equal(readFileSync(base.configPath, 'utf8'), theirs);
	assert.match(screen.notices[0]!.text, /appeared while the setup ran .*it is used as it is, and alpha\/alpha-one was not saved in it/);
});

test('the signal (Ctrl-C, or a signal from outside) ends the setup where it is, writing nothing', async () => {
	const controller = new AbortController();
	const where = place({ALPHA_KEY}, {signal: controller.signal});
	const screen = scripted([
		'alpha',
		() => {
			controller.abort();
			// The screen closes what it shows on abort: the open list answers null.
			return null;
		},
	]);
	const outcome = await runFirstRunSetup(where, screen);
	assert.equal(outcome.kind, 'left');
	assert.equal(screen.asked.length, 2, 'nothing is asked after the signal');
	assert.equal(existsSync(where.configPath), false);
});

test('a catalogue without any model says where to add one and retries', async () => {
	const base = place({});
	let reads = 0;
	// The built-ins always have models: an empty catalogue is made by hand here.
	const where = {
		...base,
		loadCatalogue: async () => {
			reads += 1;
			return {...buildCatalogue([], []), catalogue: new Catalogue([])};
		},
	};
	const screen = scripted(['retry', null]);
	const outcome = await runFirstRunSetup(where, screen);
	assert.equal(outcome.kind, 'left');
	assert.equal(reads, 2, 'try again reads the catalogue again');
	assert.match(screen.notices[0]!.text, new RegExp(`the catalogue has no provider with a model; add one in ${join(base.configDir, 'models.json')}`));
});

test('a saved config whose key is gone: the title says so; the choice is written into it (every other field kept, no plugin file), a typed key stored', async () => {
	const where = place();
	writeFileSync(where.configPath, JSON.stringify({provider: 'alpha', max_steps: 3}));
	const screen = scripted([
		asked => {
			assert.match((asked.request as ChoiceRequest).title, /the key for alpha, which .*config\.json chooses, is gone/);
			return 'alpha';
		},
		'alpha-two',
		'type',
		'sk-alpha-again-1',
	]);
	const outcome = await runFirstRunSetup({...where, keyGone: {provider: 'alpha'}}, screen);
	assert.equal(outcome.kind, 'configured');
	assert.deepEqual(JSON.parse(readFileSync(where.configPath, 'utf8')), {provider: 'alpha', model: 'alpha-two', max_steps: 3});
	assert.deepEqual(JSON.parse(readFileSync(join(where.configDir, 'auth.json'), 'utf8')), {alpha: {type: 'api_key', key: 'sk-alpha-again-1'}});
	assert.equal(existsSync(join(where.configDir, 'plugins.json')), false);
});

test('a saved config choosing by protocol whose key is gone: its own provider needs only the key (the file kept byte for byte); another is refused with the way out', async () => {
	const where = place();
	const text = '{"protocol": "openai", "model": "gpt-4.1", "api_key_env": "OPENAI_API_KEY"}';
	writeFileSync(where.configPath, text);
	const kept = await runFirstRunSetup({...where, keyGone: {provider: 'openai'}}, scripted(['openai', 'gpt-5', 'type', 'sk-openai-again-2']));
	assert.equal(kept.kind === 'configured' && kept.config, 'kept');
	assert.equal(readFileSync(where.configPath, 'utf8'), text);
	assert.deepEqual(JSON.parse(readFileSync(join(where.configDir, 'auth.json'), 'utf8')), {openai: {type: 'api_key', key: 'sk-openai-again-2'}});

	const screen = scripted(['alpha', 'alpha-one', 'env', null, null, null, null]);
	const refused = await runFirstRunSetup({...where, env: {ALPHA_KEY}, keyGone: {provider: 'openai'}}, screen);
	assert.equal(refused.kind, 'left');
	assert.ok(
		screen.notices.some(notice => notice.level === 'error' && /chooses its model by protocol: saving alpha\/alpha-one there would delete "protocol", "api_key_env"/.test(notice.text)),
		JSON.stringify(screen.notices),
	);
	assert.equal(readFileSync(where.configPath, 'utf8'), text);
});
