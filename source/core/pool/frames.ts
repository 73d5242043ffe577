import {isUtf8} from 'node:buffer';
/** spec/platform.md §2: one frame is at most 48 MiB, its newline included, in either direction. */
export const MAX_FRAME_BYTES = 48 * 1024 * 1024;

export class FrameError extends Error {
	override name = 'FrameError';
}

/**
 * One object as one NDJSON frame. JSON.stringify never emits a raw newline
 * (it escapes them; U+2028/U+2029 stay as-is but are not frame breaks here)
 * and escapes lone surrogates, so the frame is the text plus `\n`. Throws
 * FrameError when the frame would exceed `limit` bytes.
 */
export function encodeFrame(value: unknown, limit = MAX_FRAME_BYTES): Buffer {
	const text = JSON.stringify(value);
	if (text === undefined) throw new FrameError('a frame must be a JSON value');
	const bytes = Buffer.byteLength(text);
	if (bytes + 1 > limit) throw new FrameError(`a frame of ${bytes + 1} bytes is over the limit of ${limit} bytes`);
	// Written in place rather than as `text + "\n"`, which would copy a large frame's text once more.
	const frame = Buffer.allocUnsafe(bytes + 1);
	frame.write(text);
	frame[bytes] = 10;
	return frame;
}

/**
 * Splits a byte stream into frames on `\n` only (never readline, which also
 * breaks on U+2028/U+2029). A frame is decoded once it is complete, so a
 * character split across chunks is whole again; bytes that are not UTF-8
 * fail the frame rather than turn silently into U+FFFD (spec/platform.md §2: frames are
 * UTF-8). A frame whose bytes, newline included, exceed the limit is an
 * error as soon as that is certain; nothing is buffered past it. After a
 * FrameError the decoder is done: the stream cannot be resynchronised.
 */
export class FrameDecoder {
	readonly #limit: number;
	#pending: Buffer[] = [];
	#pendingBytes = 0;

	constructor(limit = MAX_FRAME_BYTES) {
		this.#limit = limit;
	}

	/** Complete frames' text (without the newline) in this chunk; throws FrameError past the limit or on bytes that are not UTF-8. */
	push(chunk: Buffer): string[] {
		const frames: string[] = [];
		let start = 0;
		for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
			const size = this.#pendingBytes + (newline - start) + 1;
			if (size > this.#limit) throw new FrameError(`a frame of at least ${size} bytes is over the limit of ${this.#limit} bytes`);
			const last = chunk.subarray(start, newline);
			frames.push(this.#decode(this.#pending.length === 0 ? last : Buffer.concat([...this.#pending, last], size - 1)));
			this.#pending = [];
			this.#pendingBytes = 0;
			start = newline + 1;
		}

		if (start < chunk.length) {
			this.#pendingBytes += chunk.length - start;
			// The newline still to come counts too.
			if (this.#pendingBytes + 1 > this.#limit) {
				throw new FrameError(`a frame of more than ${this.#pendingBytes} bytes is over the limit of ${this.#limit} bytes`);
			}

			this.#pending.push(chunk.subarray(start));
		}

		return frames;
	}

	/** Bytes of a frame begun but not ended: at EOF, a frame without its newline. */
	get pendingBytes(): number {
		return this.#pendingBytes;
	}

	#decode(bytes: Buffer): string {
		// A native validity check, then the fast decoder: several times quicker than a fatal TextDecoder on big frames.
		if (!isUtf8(bytes)) throw new FrameError(`a frame of ${bytes.length + 1} bytes is not valid UTF-8`);
		// A BOM is text here, as with ignoreBOM: toString keeps it.
		return bytes.toString('utf8');
	}
}
