import type {Message, UserContent, UserMessage} from '../messages.js';
import {deliveryIdOf} from '../session/session-records.js';

/** A person's prompt the conversation can be rewound to (to just before it). */
export interface RewindPoint {
	/** Its index in the session's messages: the rewound history is the messages before it. */
	index: number;
	/** Its words (a prompt's images are counted in `images`). */
	text: string;
	images: number;
	/** When it was sent (ms since the epoch); null for a prompt saved before prompts carried the time, whose file changes cannot be told apart. */
	sentAt: number | null;
}

/** The person's prompt as the turn saves it: the time it was sent rides along as local metadata, which no provider sees. */
export type PromptMessage = UserMessage & {_sent_at?: number};

export function promptMessage(content: UserContent, sentAt: number): PromptMessage {
	return {role: 'user', content, _sent_at: sentAt};
}

/**
 * The prompts of a history, oldest first: the user messages the person
 * sent. A message an extension delivered, a tool's images, and what a
 * `before_turn` hook added are none. In a history saved before prompts
 * carried their time, every plain user message counts.
 */
export function rewindPoints(messages: readonly Message[]): RewindPoint[] {
	const timed = messages.some(message => sentAt(message) !== null);
	const points: RewindPoint[] = [];
	for (const [index, message] of messages.entries()) {
		if (message.role !== 'user' || message._tool_call_id !== undefined || deliveryIdOf(message) !== undefined) continue;
		const at = sentAt(message);
		if (timed && at === null) continue;
		const {content} = message;
		const words = typeof content === 'string' ? content : content.flatMap(part => (part.type === 'text' ? [part.text] : [])).join('\n');
		const images = typeof content === 'string' ? 0 : content.filter(part => part.type === 'image_url').length;
		points.push({index, text: words, images, sentAt: at});
	}

	return points;
}

function sentAt(message: Message): number | null {
	const value = (message as PromptMessage)._sent_at;
	return message.role === 'user' && typeof value === 'number' && Number.isFinite(value) ? value : null;
}
