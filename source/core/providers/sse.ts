import {Buffer} from 'node:buffer';
import {StreamProtocolError, formatBytes} from './errors.js';
import type {SseEvent} from './types.js';

/** spec/platform.md §6: an HTTP body is at most 48 MiB, so no single event may be bigger. */
export const MAX_SSE_EVENT_BYTES = 48 * 1024 * 1024;

export interface SseOptions {
	/** Names the stream in errors: "anthropic stream". */
	label: string;
	/** An event's size is the UTF-8 bytes of its lines, line breaks not counted. */
	maxEventBytes?: number;
}

/**
 * Reads server-sent events from a byte stream (the WHATWG framing: lines end
 * in LF, CRLF or CR; `data` lines join with LF; a blank line dispatches;
 * `:` lines are comments; `id` and `retry` are ignored because we never
 * reconnect). A stream that ends inside an event, without the blank line
 * that completes it, throws a `StreamProtocolError` instead of yielding a
 * possibly cut event: the caller reports it as a truncated response.
 */
export async function* readSse(source: AsyncIterable<Uint8Array>, options: SseOptions): AsyncGenerator<SseEvent> {
	const parser = new SseParser(options.label, options.maxEventBytes ?? MAX_SSE_EVENT_BYTES);
	// Stream mode keeps a multi-byte character split across chunks intact.
	const decoder = new TextDecoder('utf-8');
	for await (const chunk of source) {
		yield* parser.feed(decoder.decode(chunk, {stream: true}));
	}

	yield* parser.feed(decoder.decode());
	parser.end();
}

class SseParser {
	private lineParts: string[] = [];
	private lineBytes = 0;
	private eventBytes = 0;
	private eventType: string | null = null;
	private data: string[] = [];
	/** The last text ended in CR: an LF starting the next text belongs to it. */
	private skipLf = false;

	constructor(
		private readonly label: string,
		private readonly maxEventBytes: number,
	) {}

	feed(text: string): SseEvent[] {
		const events: SseEvent[] = [];
		if (text === '') return events;
		let start = 0;
		if (this.skipLf && text.startsWith('\n')) start = 1;
		this.skipLf = false;
		const breaks = /[\r\n]/g;
		breaks.lastIndex = start;
		for (let match = breaks.exec(text); match !== null; match = breaks.exec(text)) {
			this.addPiece(text.slice(start, match.index));
			let end = match.index + 1;
			if (match[0] === '\r') {
				if (end === text.length) this.skipLf = true;
				else if (text[end] === '\n') end++;
			}

			breaks.lastIndex = end;
			start = end;
			const event = this.endLine();
			if (event) events.push(event);
		}

		this.addPiece(text.slice(start));
		return events;
	}

	/** At end of input: anything pending is an event that never completed. */
	end(): void {
		if (this.lineParts.length > 0 || this.data.length > 0 || this.eventType !== null) {
			throw new StreamProtocolError(`${this.label} ended in the middle of an event (truncated response)`);
		}
	}

	private addPiece(piece: string): void {
		if (piece === '') return;
		this.lineParts.push(piece);
		this.lineBytes += Buffer.byteLength(piece, 'utf8');
		if (this.eventBytes + this.lineBytes > this.maxEventBytes) {
			throw new StreamProtocolError(`${this.label}: one event is larger than the ${formatBytes(this.maxEventBytes)} limit`);
		}
	}

	private endLine(): SseEvent | undefined {
		const line = this.lineParts.join('');
		this.lineParts = [];
		this.eventBytes += this.lineBytes;
		this.lineBytes = 0;
		if (line === '') return this.dispatch();
		if (line.startsWith(':')) return undefined;
		const colon = line.indexOf(':');
		const field = colon === -1 ? line : line.slice(0, colon);
		let value = colon === -1 ? '' : line.slice(colon + 1);
		if (value.startsWith(' ')) value = value.slice(1);
		if (field === 'data') this.data.push(value);
		else if (field === 'event') this.eventType = value;
		return undefined;
	}

	private dispatch(): SseEvent | undefined {
		const event = this.data.length > 0 ? {event: this.eventType || null, data: this.data.join('\n')} : undefined;
		this.data = [];
		this.eventType = null;
		this.eventBytes = 0;
		return event;
	}
}
