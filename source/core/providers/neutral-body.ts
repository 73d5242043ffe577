import type {Message} from '../messages.js';
import type {ToolSchema} from './types.js';

/** What a model config gives a provider that is not one of the built-in HTTP adapters. */
export interface NeutralBodyOptions {
	model: string;
	maxTokens?: number;
	extraBody: Record<string, unknown>;
}

/**
 * The provider-neutral request body a provider worker (spec/platform.md §1) and an
 * extension provider (spec/extensions.md §5) both get:
 * `{...extra_body, model, messages, tools, max_tokens?}`. Hooks change this
 * body, never the wire of a protocol, so both read it back the same way.
 */
export function neutralBody(options: NeutralBodyOptions, messages: Message[], tools: ToolSchema[]): Record<string, unknown> {
	return {
		...options.extraBody,
		model: options.model,
		messages,
		tools,
		...(options.maxTokens === undefined ? {} : {max_tokens: options.maxTokens}),
	};
}
