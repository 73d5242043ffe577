import type {ScreenCommand} from './command-context.js';
import {chooseProvider} from './model-picker.js';
import {switchModel} from './switch-model.js';

const usage = '/provider, /provider ID or /provider remove ID';

export const providerCommand: ScreenCommand = {
	name: '/provider',
	usage,
	description: 'choose a provider (/provider ID switches, /provider remove ID removes a models.json entry)',
	takesArguments: true,
	async run(context, args) {
		const {agent, store, chooser} = context;
		const [word, id, ...rest] = args.split(/\s+/).filter(part => part !== '');
		if (word === 'remove') {
			if (id === undefined || rest.length > 0) {
				store.notice('warning', 'usage: /provider remove ID (a provider you added in models.json)');
				return;
			}

			const removed = await agent.removeProvider(id);
			store.notice(removed.ok ? 'info' : 'warning', removed.message);
			return;
		}

		if (id !== undefined) {
			store.notice('warning', `usage: ${usage}`);
			return;
		}

		const target = word ?? (await chooseProvider(agent, chooser));
		if (target !== null) await switchModel(context, {provider: target, model: undefined, origin: `/provider ${target}`});
	},
};
