import type {Message} from '../messages.js';

/** The old prefix as plain text, for a summary request that was given no text of its own. */
export function transcript(messages: readonly Message[]): string {
	return (
		messages
			// biome-ignore lint/suspicious/useIterableCallbackReturn: the switch covers every role, and tsc checks that it is exhaustive.
			.map((message): string => {
				switch (message.role) {
					case 'system': {
						return `system: ${message.content}`;
					}

					case 'user': {
						const text = typeof message.content === 'string' ? message.content : message.content.map(part => (part.type === 'text' ? part.text : '[image]')).join('\n');
						return `user: ${text}`;
					}

					case 'assistant': {
						const calls = (message.tool_calls ?? []).map(call => `\n[tool call ${call.function.name} ${call.function.arguments}]`).join('');
						return `assistant: ${message.content ?? ''}${calls}`;
					}

					case 'tool': {
						return `tool result: ${message.content}`;
					}
				}
			})
			.join('\n\n')
	);
}
