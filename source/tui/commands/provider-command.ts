import type {ScreenCommand} from './command-context.js';
import {chooseProvider} from './model-picker.js';
import {saveModelDefault, switchModel, takeDefaultFlag} from './switch-model.js';

const usage = '/provider, /provider ID, /provider ID --default, /provider --default or /provider remove ID';

export const providerCommand: ScreenCommand = {
	name: '/provider',
	usage,
	description: 'choose a provider for this session (/provider ID switches; --default also saves it in config.json; /provider remove ID removes a models.json entry)',
	takesArguments: true,
	async run(context, args) {
		const {agent, store, chooser} = context;
		const {words, asDefault} = takeDefaultFlag(args);
		const [word, id, ...rest] = words;
		if (word === 'remove') {
			if (id === undefined || rest.length > 0 || asDefault) {
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

		// `/provider --default` alone saves the model the session uses now.
		if (word === undefined && asDefault) {
			await saveModelDefault(context);
			return;
		}

		const target = word ?? (await chooseProvider(agent, chooser));
		if (target === null) return;
		if ((await switchModel(context, {provider: target, model: undefined, origin: `/provider ${target}`}, {command: '/provider', saving: asDefault})) && asDefault) await saveModelDefault(context);
	},
};
