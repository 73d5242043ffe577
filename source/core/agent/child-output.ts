/**
 * What a child task hands back while and after it runs (spec/extensions.md §3): its
 * text deltas, taken by `poll`, and its final report. Both share one budget
 * of bytes, of which the deltas never take the report's reserve, and the
 * deltas have a count; past either the stream is cut with one marker delta
 * and `truncated`, and the task goes on. The budget counts
 * everything the task produced (a delta taken by a poll still counts), so a
 * task costs the host at most that much however often it is polled.
 */

/** Text deltas and the final report of one child task share this many bytes (UTF-8). */
export const MAX_CHILD_OUTPUT_BYTES = 4 * 1024 * 1024; // spec/extensions.md §3: 4 MiB
/**
 * Of those bytes, the part the deltas may never take: a child whose stream
 * filled the budget still hands back its final report (i's own number:
 * the 64,000 characters a batch's tool results give the model, at up to 4
 * UTF-8 bytes each).
 */
export const CHILD_REPORT_RESERVE_BYTES = 256 * 1024;
/** What the deltas may take of the shared budget. */
export const MAX_CHILD_DELTA_BYTES = MAX_CHILD_OUTPUT_BYTES - CHILD_REPORT_RESERVE_BYTES;
/** Deltas one child task may produce; the marker that says the stream was cut comes after them. */
export const MAX_CHILD_DELTAS = 8192; // spec/extensions.md §3

export type ChildDelta = {type: 'text'; text: string} | {type: 'truncated'; text: string};

/** Said at the end of a report that did not fit the budget left. */
export const REPORT_CUT_MARKER = `\n[the report was cut: a child task's deltas and report share ${MAX_CHILD_OUTPUT_BYTES} bytes]`;

export class ChildOutput {
	#pending: ChildDelta[] = [];
	#bytes = 0;
	#count = 0;
	#streamCut = false;
	#reportCut = false;

	/** The stream or the report was cut. */
	get truncated(): boolean {
		return this.#streamCut || this.#reportCut;
	}

	/** The report was cut to what the deltas left of the budget. */
	get reportCut(): boolean {
		return this.#reportCut;
	}

	/** Bytes used so far, deltas and report. */
	get bytes(): number {
		return this.#bytes;
	}

	/** One text delta of the child's answer; dropped once the stream was cut. */
	push(text: string): void {
		if (this.#streamCut || text === '') return;
		if (this.#count >= MAX_CHILD_DELTAS) {
			this.#cut(`[deltas cut: a child task produces at most ${MAX_CHILD_DELTAS} deltas; its report still comes]`);
			return;
		}

		const size = Buffer.byteLength(text);
		if (this.#bytes + size > MAX_CHILD_DELTA_BYTES) {
			const head = fitBytes(text, MAX_CHILD_DELTA_BYTES - this.#bytes);
			if (head !== '') this.#add(head);
			this.#cut(`[deltas cut: a child task's deltas take at most ${MAX_CHILD_DELTA_BYTES} of the ${MAX_CHILD_OUTPUT_BYTES} bytes they share with its report; its report still comes]`);
			return;
		}

		this.#add(text);
	}

	/** The deltas since the last take, in order. */
	take(): ChildDelta[] {
		const taken = this.#pending;
		this.#pending = [];
		return taken;
	}

	/** The final report as it is kept: whole when it fits what the deltas left, else cut with REPORT_CUT_MARKER inside the budget. */
	report(text: string): string {
		const left = MAX_CHILD_OUTPUT_BYTES - this.#bytes;
		const size = Buffer.byteLength(text);
		if (size <= left) {
			this.#bytes += size;
			return text;
		}

		this.#reportCut = true;
		const markerBytes = Buffer.byteLength(REPORT_CUT_MARKER);
		const kept = fitBytes(text, Math.max(0, left - markerBytes));
		const report = left >= markerBytes ? kept + REPORT_CUT_MARKER : '';
		this.#bytes += Buffer.byteLength(report);
		return report;
	}

	#add(text: string): void {
		this.#pending.push({type: 'text', text});
		this.#count++;
		this.#bytes += Buffer.byteLength(text);
	}

	#cut(text: string): void {
		this.#streamCut = true;
		this.#pending.push({type: 'truncated', text});
	}
}

/** The longest prefix of `text` of at most `bytes` UTF-8 bytes that ends on a whole code point. */
export function fitBytes(text: string, bytes: number): string {
	if (bytes <= 0) return '';
	const encoded = Buffer.from(text);
	if (encoded.length <= bytes) return text;
	let end = bytes;
	// Back off continuation bytes (10xxxxxx) so no character is broken.
	while (end > 0 && (encoded[end]! & 0xc0) === 0x80) end--;
	return encoded.subarray(0, end).toString('utf8');
}
