import type {AssistantMessage} from '../../source/core/messages.js';

/**
 * The raw finish reasons of a Responses reply the conversation can go on
 * from: `completed` (or no status at all), and `max_output_tokens`, which the
 * core reports as a length stop. Any other `status: incomplete` reason
 * (content_filter, or one the API adds later) is not a whole answer.
 */
const acceptedFinish = new Set<string | null>([null, 'completed', 'max_output_tokens']);

/**
 * Refuses a Responses reply that is not a usable answer, with the reason:
 * one assembled from another protocol's stream (no output items), one the
 * server marked incomplete for a reason other than the output cap, or one
 * with neither text nor tool calls (only reasoning, say).
 */
export function checkReply(message: AssistantMessage, finishReason: string | null): void {
	const output = message._responses_output;
	if (!Array.isArray(output)) {
		throw new Error('responses module: the reply has no Responses output items (_responses_output); it was not read from a Responses stream, so the wire was not converted');
	}

	if (!acceptedFinish.has(finishReason)) {
		throw new Error(`responses module: the Responses reply is incomplete (${JSON.stringify(finishReason)}); it is refused rather than kept as an answer`);
	}

	if (!message.content && (message.tool_calls ?? []).length === 0) {
		const kinds = output.map(item => (item !== null && typeof item === 'object' && typeof (item as {type?: unknown}).type === 'string' ? (item as {type: string}).type : '?'));
		const held = kinds.length > 0 ? `only ${kinds.join(', ')} items` : 'no output items';
		throw new Error(`responses module: the Responses reply has neither text nor tool calls (${held}${finishReason === 'max_output_tokens' ? ', cut off by max_output_tokens' : ''}); it is refused`);
	}
}
