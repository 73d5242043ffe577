import {MAX_OFFERED_TOOLS} from '../agent/offered-tools.js';
import type {ExecutionContext} from '../extensions/api.js';
import type {ModelCaller} from '../providers/model-caller.js';
import type {Session} from './session-store.js';
import type {Tool} from '../tools/types.js';

/** The agent's fields that /reload and a session switch replace: the execution context and a starting child read them as they are now. */
export interface LiveAgent {
	caller: ModelCaller;
	tools: readonly Tool[];
	session: Session;
}

/**
 * `runtime.getExecutionContext()` (spec/extensions.md §3): the model identity, the
 * thinking setting, the active tools, the workspace and the session, read
 * live on every call and returned as a fresh copy. It is built from names
 * only: a credential, a header, a base URL or an endpoint has no way in.
 */
export function executionContextService(live: () => LiveAgent, fixed: {workspace: string; thinking: unknown}): (extension: string) => ExecutionContext {
	return () => {
		const {caller, tools, session} = live();
		return {
			model: {provider: caller.provider ?? caller.protocol, id: caller.model},
			thinking: fixed.thinking === null ? null : structuredClone(fixed.thinking),
			// The tools a request offers: past the cap none is offered.
			tools: tools.slice(0, MAX_OFFERED_TOOLS).map(tool => tool.name),
			cwd: fixed.workspace,
			...(session.id ? {sessionId: session.id} : {}),
		};
	};
}

/**
 * The config's thinking setting for getExecutionContext: there is no field
 * of its own, so the first of `extra_body`'s reasoning_effort (OpenAI),
 * thinking (Anthropic, DeepSeek) and reasoning (Responses) that is set, as
 * written; null when none is.
 */
export function thinkingSetting(extraBody: Record<string, unknown>): unknown {
	for (const key of ['reasoning_effort', 'thinking', 'reasoning']) if (extraBody[key] !== undefined) return extraBody[key];
	return null;
}
