import {plural} from './format.js';

/**
 * Collects a stream's bytes in bounded memory: the first half of `limit`
 * bytes and the most recent half, counting what falls in between.
 */
export class HeadTailBuffer {
	readonly #headLimit: number;
	readonly #tailLimit: number;
	readonly #head: Buffer[] = [];
	#headBytes = 0;
	#tail: Buffer[] = [];
	#tailBytes = 0;
	#total = 0;

	constructor(limit: number) {
		this.#headLimit = Math.floor(limit / 2);
		this.#tailLimit = limit - this.#headLimit;
	}

	get totalBytes(): number {
		return this.#total;
	}

	push(chunk: Buffer): void {
		this.#total += chunk.length;
		let rest = chunk;
		if (this.#headBytes < this.#headLimit) {
			const part = rest.subarray(0, this.#headLimit - this.#headBytes);
			this.#head.push(part);
			this.#headBytes += part.length;
			rest = rest.subarray(part.length);
		}

		if (rest.length === 0) {
			return;
		}

		this.#tail.push(rest);
		this.#tailBytes += rest.length;
		while (this.#tailBytes > this.#tailLimit) {
			const first = this.#tail[0]!;
			const excess = this.#tailBytes - this.#tailLimit;
			if (first.length <= excess) {
				this.#tail.shift();
				this.#tailBytes -= first.length;
			} else {
				this.#tail[0] = first.subarray(excess);
				this.#tailBytes -= excess;
			}
		}
	}

	/** The text, with `… N bytes omitted …` where the middle was dropped. */
	toString(): string {
		const omitted = this.#total - this.#headBytes - this.#tailBytes;
		if (omitted === 0) {
			return Buffer.concat([...this.#head, ...this.#tail]).toString('utf8');
		}

		const head = Buffer.concat(this.#head).toString('utf8');
		const tail = Buffer.concat(this.#tail).toString('utf8');
		return `${head}\n… ${plural(omitted, 'byte')} omitted …\n${tail}`;
	}
}
