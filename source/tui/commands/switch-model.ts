import type {CommandContext} from './command-context.js';
import type {ModelTarget} from './model-picker.js';

/** Switches the running session's model and saves it as the default; a failure leaves both and says why (/provider, /model). */
export async function switchModel({agent, store}: Pick<CommandContext, 'agent' | 'store'>, target: ModelTarget): Promise<void> {
	const before = agent.selected ? `${agent.selected.provider}/${agent.selected.model}` : agent.caller.model;
	const result = await agent.switchModel(target);
	if (!result.ok) {
		store.notice('error', `the switch failed; the session keeps ${before} and config.json is unchanged: ${result.reason}`);
		return;
	}

	store.setStatus({model: result.caller.model});
	const saved =
		result.saved === null
			? 'not saved (the config was given as an object, not a file)'
			: `saved as the default in ${result.saved.path}${result.saved.removed.length === 0 ? '' : ` (removed ${result.saved.removed.map(field => `"${field}"`).join(', ')}: the catalogue gives them now)`}`;
	store.notice('info', `now ${result.selected.provider}/${result.selected.model} (${result.credentialSource}); ${saved}`);
}
