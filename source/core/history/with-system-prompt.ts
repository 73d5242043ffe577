import type {Message} from '../messages.js';

/**
 * The history as one request sends it with another system prompt: the
 * leading system message replaced, or added when there is none; `""` sends
 * none at all (a cleared prompt, which some providers refuse as an empty
 * system text). The history itself is not changed.
 */
export function withSystemPrompt(messages: readonly Message[], systemPrompt: string): Message[] {
	const rest = messages[0]?.role === 'system' ? messages.slice(1) : [...messages];
	return systemPrompt === '' ? rest : [{role: 'system', content: systemPrompt}, ...rest];
}
