import {read, writeSync} from 'node:fs';
import {EventEmitter} from 'node:events';
import type {FrameInput, FrameOutput} from './worker-io.js';

/** What one read of stdin takes at most. */
const READ_BYTES = 64 * 1024;

/**
 * stdin and stdout as a worker serves them: reads and writes on the file
 * descriptors themselves, not through process.stdin and process.stdout,
 * which for a pipe make a net.Socket each (node's net module and stream
 * set-up, which the official host would pay at every start, so every
 * default-profile one-shot). The descriptors a worker is started with
 * are blocking (libuv makes a child's stdio so): a read waits in the thread
 * pool, a write returns once written. One that is not (a pipe someone made
 * non-blocking) is handed to the stream it would have had, from the first
 * EAGAIN on, so nothing is lost and nothing spins.
 */
export function fdIo(): {input: FrameInput; output: FrameOutput} {
	return {input: new FdInput(0, () => process.stdin), output: new FdOutput(1, () => process.stdout)};
}

/** Chunks read from `fd` as 'data' events, then 'end' at EOF; `fallback` takes over a descriptor that would block. */
export class FdInput extends EventEmitter implements FrameInput {
	readonly #fd: number;
	readonly #fallback: () => NodeJS.ReadableStream;
	#stream: NodeJS.ReadableStream | undefined;
	#paused = false;
	#reading = false;
	#done = false;

	constructor(fd: number, fallback: () => NodeJS.ReadableStream) {
		super();
		this.#fd = fd;
		this.#fallback = fallback;
		// After the caller's listeners are on: a read may end at once.
		queueMicrotask(() => this.#pump());
	}

	pause(): this {
		this.#paused = true;
		this.#stream?.pause();
		return this;
	}

	resume(): this {
		this.#paused = false;
		if (this.#stream) this.#stream.resume();
		else this.#pump();
		return this;
	}

	destroy(): this {
		this.#done = true;
		(this.#stream as {destroy?: () => void} | undefined)?.destroy?.();
		return this;
	}

	#pump(): void {
		if (this.#paused || this.#reading || this.#done || this.#stream) return;
		this.#reading = true;
		const buffer = Buffer.allocUnsafe(READ_BYTES);
		read(this.#fd, buffer, 0, READ_BYTES, null, (error, bytes) => {
			this.#reading = false;
			if (this.#done) return;
			if (error?.code === 'EAGAIN') {
				this.#handOver();
			} else if (error) {
				this.#done = true;
				this.emit('error', error);
			} else if (bytes === 0) {
				this.#done = true;
				this.emit('end');
			} else {
				this.emit('data', buffer.subarray(0, bytes));
				this.#pump();
			}
		});
	}

	#handOver(): void {
		const stream = this.#fallback();
		this.#stream = stream;
		stream.on('data', chunk => this.emit('data', chunk));
		stream.once('end', () => this.emit('end'));
		stream.once('error', error => this.emit('error', error));
		if (this.#paused) stream.pause();
		else stream.resume();
	}
}

/** Frames written to `fd` whole before the callback; `fallback` takes over a descriptor that would block, from the bytes not written on. */
export class FdOutput implements FrameOutput {
	readonly #fd: number;
	readonly #fallback: () => NodeJS.WritableStream;
	#stream: NodeJS.WritableStream | undefined;

	constructor(fd: number, fallback: () => NodeJS.WritableStream) {
		this.#fd = fd;
		this.#fallback = fallback;
	}

	write(frame: Buffer, done: (error?: Error | null) => void): boolean {
		if (this.#stream) return this.#stream.write(frame, done);
		let written = 0;
		try {
			while (written < frame.length) written += writeSync(this.#fd, frame, written);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') {
				done(error as Error);
				return false;
			}

			this.#stream = this.#fallback();
			return this.#stream.write(frame.subarray(written), done);
		}

		done();
		return true;
	}
}
