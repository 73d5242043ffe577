import {transcript} from '../../source/core/history/transcript.js';
import type {ImagePart, Message} from '../../source/core/messages.js';
import {truncateOutput} from '../../source/core/tools/truncate.js';

/** Tool results and other long messages keep this many characters in the text to summarise. */
const MESSAGE_CHARS = 2000;
/** Images sent with a summary request at most (a batch's limit). */
const MAX_IMAGES = 8;

const omitted = (count: number) => `\n[… ${count} characters omitted …]\n`;

/**
 * The old prefix as text for the summary request, at most `roomBytes` as a
 * JSON string (what the byte estimate counts): each long message cut to its
 * head and tail first, then, if still too long, the oldest part dropped —
 * except a previous summary at the start, which is the memory of all before
 * it and is kept. Chunked summaries are not done (spec/platform.md §7).
 */
export function summaryText(prefix: readonly Message[], roomBytes: number): string {
	const shortened = prefix.map(message => shorten(message));
	let text = transcript(shortened);
	if (jsonBytes(text) <= roomBytes) return text;
	const keepFirst = isSummary(prefix[0]) ? transcript(shortened.slice(0, 1)) + '\n\n' : '';
	const rest = transcript(isSummary(prefix[0]) ? shortened.slice(1) : shortened);
	// Drop from the start of the rest until it fits; a binary search on the cut point.
	let low = 0;
	let high = rest.length;
	while (low < high) {
		const middle = Math.floor((low + high) / 2);
		text = keepFirst + omitted(middle) + rest.slice(middle);
		if (jsonBytes(text) <= roomBytes) high = middle;
		else low = middle + 1;
	}

	text = keepFirst + omitted(low) + rest.slice(low);
	return jsonBytes(text) <= roomBytes ? text : '';
}

/** Image parts of the prefix, the newest first, at most a batch. */
export function prefixImages(prefix: readonly Message[]): ImagePart[] {
	const images: ImagePart[] = [];
	for (const message of [...prefix].reverse()) {
		if (message.role !== 'user' || typeof message.content === 'string') continue;
		for (const part of message.content) if (part.type === 'image_url' && images.length < MAX_IMAGES) images.push(part);
	}

	return images;
}

export function jsonBytes(text: string): number {
	return Buffer.byteLength(JSON.stringify(text));
}

function isSummary(message: Message | undefined): boolean {
	return message !== undefined && (message as unknown as Record<string, unknown>)._compact_summary === true;
}

function shorten(message: Message): Message {
	switch (message.role) {
		case 'tool':
			return {...message, content: cut(message.content)};
		case 'assistant':
			return {...message, content: message.content === null ? null : cut(message.content)};
		case 'user':
			if (isSummary(message)) return message;
			return typeof message.content === 'string'
				? {...message, content: cut(message.content)}
				: {...message, content: message.content.map(part => (part.type === 'text' ? {...part, text: cut(part.text)} : part))};
		default:
			return message;
	}
}

function cut(text: string): string {
	return truncateOutput(text, MESSAGE_CHARS);
}
