import type {Agent} from '../../core/session/agent.js';
import type {ScreenCommand} from './command-context.js';
import {chooseModel, type ModelTarget} from './model-picker.js';
import {saveModelDefault, switchModel, takeDefaultFlag} from './switch-model.js';

const usage = '/model, /model ID (or PROVIDER/MODEL), /model ID --default or /model --default';

export const modelCommand: ScreenCommand = {
	name: '/model',
	usage,
	description: 'choose a model for this session (/model ID or PROVIDER/MODEL switches; --default also saves it in config.json)',
	takesArguments: true,
	async run(context, args) {
		const {agent, store, chooser} = context;
		const {words, asDefault} = takeDefaultFlag(args);
		if (words.length > 1) {
			store.notice('warning', `usage: ${usage}`);
			return;
		}

		// `/model --default` alone saves the model the session uses now.
		if (words[0] === undefined && asDefault) {
			await saveModelDefault(context);
			return;
		}

		const target = words[0] === undefined ? await chooseModel(agent, chooser) : modelTarget(agent, words[0]);
		if (target === null) return;
		if ((await switchModel(context, target, {command: '/model', saving: asDefault})) && asDefault) await saveModelDefault(context);
	},
};

/** `/model ID`: a bare id within the current provider (when it has one), `PROVIDER/MODEL` or a bare id anywhere otherwise. */
function modelTarget(agent: Pick<Agent, 'selected'>, id: string): ModelTarget {
	const provider = agent.selected?.provider;
	const own = provider !== undefined && !id.includes('/') ? provider : undefined;
	return {provider: own, model: id, origin: `/model ${id}`};
}
