import {StartVetoError, errorMessage} from '../errors.js';
import {renderSystemPrompt} from '../history/system-prompt.js';
import {HookError, type HookChain} from '../lifecycle/hook-chain.js';
import {readSystemPrompt} from '../lifecycle/hook-results.js';
import {applyProjectSystemPrompt, readProjectSystemPrompt} from '../resources/project-system-prompt.js';
import type {Session} from './session-store.js';

/**
 * `session_load` for every session, `system_prompt` for a new one. These run
 * before any turn: a failing hook vetoes the start. The workspace's
 * `.i/SYSTEM.md` then replaces what was chosen (the project's word beats the
 * global config's, spec/extensions.md §8) and `.i/APPEND_SYSTEM.md` extends it.
 */
export async function startHooks(hooks: HookChain, session: Session, workspace: string, signal: AbortSignal | undefined): Promise<string> {
	const fallback = renderSystemPrompt(workspace);
	const project = readProjectSystemPrompt(workspace);
	// Read while the hooks run; a failing hook's veto is what is reported then.
	project.catch(() => {});
	try {
		if (hooks.has('session_load')) await hooks.run('session_load', {messages: session.messages, session: {id: session.id, path: session.path}}, {signal});
		const chosen = session.messages.length > 0 || !hooks.has('system_prompt') ? fallback : readSystemPrompt(await hooks.run('system_prompt', {prompt: fallback, workspace}, {signal}));
		return applyProjectSystemPrompt(chosen, await project);
	} catch (error) {
		if (signal?.aborted) throw error;
		if (error instanceof HookError) throw new StartVetoError(`a plugin vetoed the start: ${errorMessage(error)}`);
		throw error;
	}
}
