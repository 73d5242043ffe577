// /model and /provider in the chat screen (model-command.ts,
// provider-command.ts, model-picker.ts) against a stand-in agent: a switch
// changes the session only, `--default` is the separate step that saves,
// a failed switch saves nothing, and the pickers name the current choice.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import type {ChoiceRequest} from '../../source/tui/brokers/chooser-broker.js';
import type {CommandContext} from '../../source/tui/commands/command-context.js';
import {modelCommand} from '../../source/tui/commands/model-command.js';
import {providerCommand} from '../../source/tui/commands/provider-command.js';
import {takeDefaultFlag} from '../../source/tui/commands/switch-model.js';

const model = (id: string) => ({id, name: id, contextWindow: 1000, cost: {input: 1, output: 2}});
const choices = [
	{id: 'alpha', auth: 'env ALPHA_KEY', ready: true, needsKey: true, models: [model('one'), model('two')]},
	{id: 'beta', auth: 'env BETA_KEY', ready: false, needsKey: true, models: [model('three')]},
];

/** A context whose agent records switches and saves, and whose chooser answers `picks` in turn and keeps what it was asked. */
function context(options: {selected: {provider: string; model: string} | null; switchFails?: boolean; picks?: Array<string | null>}) {
	const calls: string[] = [];
	const asked: ChoiceRequest[] = [];
	const notices: Array<[string, string]> = [];
	let selected = options.selected;
	const agent = {
		get selected() {
			return selected;
		},
		caller: {model: 'local'},
		providerChoices: async () => choices,
		async switchModel(target: {provider: string | undefined; model: string | undefined; origin: string}) {
			calls.push(`switch ${target.provider ?? '-'} ${target.model ?? '-'}`);
			if (options.switchFails) return {ok: false, reason: 'no key'};
			selected = {provider: target.provider ?? 'alpha', model: target.model ?? 'one'};
			return {ok: true, caller: {model: selected.model}, selected, previous: {provider: null, model: 'local'}, credentialSource: 'env'};
		},
		async saveModelDefault() {
			calls.push('save');
			return selected ? {ok: true, choice: selected, path: '/c/config.json', created: false} : {ok: false, reason: 'by protocol'};
		},
	};
	const store = {notice: (level: string, text: string) => notices.push([level, text]), setStatus() {}};
	const chooser = {
		async ask(request: ChoiceRequest) {
			asked.push(request);
			return options.picks?.shift() ?? null;
		},
	};
	return {context: {agent, store, chooser} as unknown as CommandContext, calls, asked, notices};
}

test('takeDefaultFlag takes --default wherever it stands', () => {
	assert.deepEqual(takeDefaultFlag(' alpha/two  --default '), {words: ['alpha/two'], asDefault: true});
	assert.deepEqual(takeDefaultFlag('--default'), {words: [], asDefault: true});
	assert.deepEqual(takeDefaultFlag('alpha'), {words: ['alpha'], asDefault: false});
});

test('/model ID and /provider ID switch the session only and say how to save; with --default they save after the switch; alone --default saves the current', async () => {
	const plain = context({selected: {provider: 'alpha', model: 'one'}});
	await modelCommand.run(plain.context, 'two');
	await providerCommand.run(plain.context, 'beta');
	assert.deepEqual(plain.calls, ['switch alpha two', 'switch beta -']);
	assert.match(plain.notices[0]![1], /^now alpha\/two for this session \(env\); config\.json is unchanged \(\/model --default makes it the default\)$/);
	assert.match(plain.notices[1]![1], /\(\/provider --default makes it the default\)$/);

	const saving = context({selected: {provider: 'alpha', model: 'one'}});
	await modelCommand.run(saving.context, 'two --default');
	await modelCommand.run(saving.context, '--default');
	await providerCommand.run(saving.context, '--default beta');
	await providerCommand.run(saving.context, '--default');
	assert.deepEqual(saving.calls, ['switch alpha two', 'save', 'save', 'switch beta -', 'save', 'save']);
	assert.equal(saving.notices[0]![1], 'now alpha/two for this session (env)');
	assert.equal(saving.notices[1]![1], 'alpha/two is the default now: saved in /c/config.json');

	const failing = context({selected: {provider: 'alpha', model: 'one'}, switchFails: true});
	await modelCommand.run(failing.context, 'two --default');
	assert.deepEqual(failing.calls, ['switch alpha two'], 'a failed switch saves nothing');
	assert.deepEqual(failing.notices, [['error', 'the switch failed; the session keeps alpha/one: no key']]);

	const refused = context({selected: null});
	await modelCommand.run(refused.context, '--default');
	assert.deepEqual(refused.notices, [['warning', 'not saved as the default: by protocol']]);
	await providerCommand.run(refused.context, 'remove --default');
	assert.match(refused.notices[1]![1], /^usage: \/provider remove ID/);
	assert.deepEqual(refused.calls, ['save']);
});

test('the pickers name the current model and provider, and say Enter switches the session and --default saves', async () => {
	const within = context({selected: {provider: 'alpha', model: 'two'}, picks: ['one', null]});
	await modelCommand.run(within.context, '');
	await providerCommand.run(within.context, '');
	const [models, providers] = within.asked;
	assert.equal(models!.current, 'two');
	assert.deepEqual(
		models!.options.map(option => option.value),
		['one', 'two'],
	);
	assert.equal(models!.enter, 'switch this session (then /model --default saves it)');
	assert.equal(providers!.current, 'alpha');
	assert.equal(providers!.enter, 'switch this session (then /provider --default saves it)');
	assert.deepEqual(within.calls, ['switch alpha one'], 'the picked model switched; the cancelled provider list did nothing');

	const byProtocol = context({selected: null});
	await modelCommand.run(byProtocol.context, '');
	assert.equal(byProtocol.asked[0]!.current, undefined);
	assert.equal(byProtocol.asked[0]!.title, "Model (provider/model; now local, by the config's protocol)");
	assert.deepEqual(byProtocol.calls, []);
});
