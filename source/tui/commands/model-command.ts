import type {Agent} from '../../core/session/agent.js';
import type {ScreenCommand} from './command-context.js';
import {chooseModel, type ModelTarget} from './model-picker.js';
import {switchModel} from './switch-model.js';

const usage = '/model or /model ID (or PROVIDER/MODEL)';

export const modelCommand: ScreenCommand = {
	name: '/model',
	usage,
	description: 'choose a model of the provider (/model ID or PROVIDER/MODEL switches)',
	takesArguments: true,
	async run(context, args) {
		const {agent, store, chooser} = context;
		const words = args.split(/\s+/).filter(part => part !== '');
		if (words.length > 1) {
			store.notice('warning', `usage: ${usage}`);
			return;
		}

		const target = words[0] === undefined ? await chooseModel(agent, chooser) : modelTarget(agent, words[0]);
		if (target !== null) await switchModel(context, target);
	},
};

/** `/model ID`: a bare id within the current provider (when it has one), `PROVIDER/MODEL` or a bare id anywhere otherwise. */
function modelTarget(agent: Pick<Agent, 'selected'>, id: string): ModelTarget {
	const provider = agent.selected?.provider;
	const own = provider !== undefined && !id.includes('/') ? provider : undefined;
	return {provider: own, model: id, origin: `/model ${id}`};
}
