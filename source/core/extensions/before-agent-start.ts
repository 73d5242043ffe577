import type {BeforeAgentStartEvent} from './api.js';
import {callHandler, type ExtensionHandler} from './call-handler.js';
import {describeThrown} from './describe-thrown.js';
import {EVENT_TIMEOUT_MS} from './event-tags.js';

/** One extension's `registerBeforeAgentStart` transform. */
export interface SystemPromptTransform {
	extension: string;
	handler: ExtensionHandler;
}

/** The system prompt one run sends, from the one the session has. */
export type BeforeAgentStart = (event: BeforeAgentStartEvent) => Promise<string>;

/**
 * spec/extensions.md §5, the runtime system-prompt transform: the transforms run in
 * priority order, each given the event with the prompt the one before it
 * made. `{systemPrompt}` replaces it (never appends), `{}` or nothing leaves
 * it, `""` clears it; a throw, a timeout (10 s) or another answer is
 * reported with the extension's name and keeps the value before it.
 */
export function createBeforeAgentStart(transforms: readonly SystemPromptTransform[], report: (message: string) => void, timeoutMs: number = EVENT_TIMEOUT_MS): BeforeAgentStart {
	return async event => {
		let current = event.systemPrompt;
		for (const {extension, handler} of transforms) {
			const outcome = await callHandler(handler, {...event, systemPrompt: current}, {tag: 'BeforeAgentStart', extension}, timeoutMs);
			if (!outcome.ok) {
				report(`extension ${extension}: BeforeAgentStart transform ${outcome.message}; the system prompt is kept`);
				continue;
			}

			try {
				current = readAnswer(outcome.value) ?? current;
			} catch (error) {
				report(`extension ${extension}: BeforeAgentStart transform answered ${describeThrown(error)}; the system prompt is kept`);
			}
		}

		return current;
	};
}

function readAnswer(answer: unknown): string | undefined {
	if (answer === undefined || answer === null) return undefined;
	if (typeof answer !== 'object' || Array.isArray(answer)) throw new Error(`${Array.isArray(answer) ? 'a list' : `a ${typeof answer}`}, not an object {systemPrompt}`);
	const {systemPrompt} = answer as {systemPrompt?: unknown};
	if (systemPrompt === undefined) return undefined;
	if (typeof systemPrompt !== 'string') throw new Error(`"systemPrompt" as ${systemPrompt === null ? 'null' : `a ${typeof systemPrompt}`}, not a string`);
	return systemPrompt;
}
