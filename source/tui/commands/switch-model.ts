import type {CommandContext} from './command-context.js';
import type {ModelTarget} from './model-picker.js';

type Context = Pick<CommandContext, 'agent' | 'store'>;

/** The flag of /model and /provider that makes the choice the default in config.json. */
export const DEFAULT_FLAG = '--default';

/** A command's words without `--default`, and whether it was there. */
export function takeDefaultFlag(args: string): {words: string[]; asDefault: boolean} {
	const all = args.split(/\s+/).filter(part => part !== '');
	const words = all.filter(word => word !== DEFAULT_FLAG);
	return {words, asDefault: words.length < all.length};
}

/**
 * Switches the running session's model (/provider, /model); config.json is
 * not written. A failure leaves the session as it was and says why; true
 * when it switched. `command` names the step that saves the default.
 */
export async function switchModel({agent, store}: Context, target: ModelTarget, options: {command: string; saving: boolean}): Promise<boolean> {
	const before = agent.selected ? `${agent.selected.provider}/${agent.selected.model}` : agent.caller.model;
	const result = await agent.switchModel(target);
	if (!result.ok) {
		store.notice('error', `the switch failed; the session keeps ${before}: ${result.reason}`);
		return false;
	}

	store.setStatus({model: result.caller.model});
	const hint = options.saving ? '' : `; config.json is unchanged (${options.command} ${DEFAULT_FLAG} makes it the default)`;
	store.notice('info', `now ${result.selected.provider}/${result.selected.model} for this session (${result.credentialSource})${hint}`);
	return true;
}

/** Makes the session's model the default in config.json (`--default`); a refusal says why, the file as it was. */
export async function saveModelDefault({agent, store}: Context): Promise<void> {
	const saved = await agent.saveModelDefault();
	if (!saved.ok) {
		store.notice('warning', `not saved as the default: ${saved.reason}`);
		return;
	}

	store.notice('info', `${saved.choice.provider}/${saved.choice.model} is the default now: ${saved.created ? 'created' : 'saved in'} ${saved.path}`);
}
