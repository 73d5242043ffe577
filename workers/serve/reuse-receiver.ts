import {arrayAt, readReuse, restoreArrays, withArrayAt, type Reuse} from '../../source/core/pool/prefix-reuse.js';

/**
 * A worker's side of prefix reuse (source/core/pool/prefix-reuse.ts): the
 * full arrays of the last request at each pointer, to rebuild the next
 * request from, and the shortening of answers that give those arrays back.
 * Elements are frozen once received, so a handler cannot change a base the
 * next request reuses (it would throw), and an answer's element that is the
 * very one received is the same value.
 */
export class ReuseReceiver {
	readonly #bases = new Map<string, unknown[]>();

	/**
	 * Rebuilds `data` (a just-parsed request's, changed in place) from the
	 * frame's `reuse`; throws, for an error frame, on a reuse that does not
	 * fit the bases. `answer` then shortens the handler's result against
	 * this request.
	 */
	restore(data: Record<string, unknown>, reuseField: unknown): {answer: (result: Record<string, unknown>) => {data: Record<string, unknown>; reuse: Reuse}} {
		const rebuilt = restoreArrays(data, readReuse(reuseField), pointer => this.#bases.get(pointer));
		for (const {pointer, full, added} of rebuilt) {
			for (const element of added) deepFreeze(element);
			this.#bases.set(pointer, full);
		}

		return {
			answer(result) {
				const reuse: Reuse = {};
				let shortened = result;
				for (const {pointer, full} of rebuilt) {
					const given = arrayAt(result, pointer);
					if (given === undefined) continue;
					const most = Math.min(given.length, full.length);
					let count = 0;
					while (count < most && given[count] === full[count]) count++;
					if (count === 0) continue;
					reuse[pointer] = count;
					shortened = withArrayAt(shortened, pointer, given.slice(count));
				}

				return {data: shortened, reuse};
			},
		};
	}
}

function deepFreeze(value: unknown): void {
	if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
	Object.freeze(value);
	for (const inner of Object.values(value)) deepFreeze(inner);
}
