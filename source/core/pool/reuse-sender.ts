import {isDeepFrozen} from '../immutable.js';
import {reusableArrays, withArrayAt, type Reuse} from './prefix-reuse.js';

/** JSON texts of deeply frozen elements (session messages), which never change: each written once. */
const texts = new WeakMap<object, string>();

function textOf(element: unknown): string {
	// An element JSON cannot write (undefined, a function) is null in an array.
	if (typeof element !== 'object' || element === null || !isDeepFrozen(element)) return JSON.stringify(element) ?? 'null';
	let text = texts.get(element);
	if (text === undefined) {
		text = JSON.stringify(element) ?? 'null';
		texts.set(element, text);
	}

	return text;
}

/**
 * The core's side of prefix reuse (prefix-reuse.ts) for one worker process:
 * what it last sent at each pointer, element by element as JSON text, so a
 * request carries only the elements that differ from there on. Elements are
 * compared by their text, never by identity alone, so a message changed in
 * place is sent again; the text of a deeply frozen one is written once. A
 * new process starts with no bases.
 */
export class ReuseSender {
	#sent = new Map<string, string[]>();

	/**
	 * The data to put in the frame and its `reuse`. The bases move on only
	 * through `commit`, called once the frame is on its way: a request that
	 * could not be encoded leaves them as the worker knows them.
	 */
	prepare(data: Record<string, unknown>): {data: Record<string, unknown>; reuse: Reuse; commit: () => void} {
		const reuse: Reuse = {};
		const next = new Map<string, string[]>();
		let shortened = data;
		for (const [pointer, array] of reusableArrays(data)) {
			const current = array.map(element => textOf(element));
			const previous = this.#sent.get(pointer) ?? [];
			const most = Math.min(current.length, previous.length);
			let count = 0;
			while (count < most && current[count] === previous[count]) count++;
			reuse[pointer] = count;
			next.set(pointer, current);
			if (count > 0) shortened = withArrayAt(shortened, pointer, array.slice(count));
		}

		return {
			data: shortened,
			reuse,
			commit: () => {
				for (const [pointer, sent] of next) this.#sent.set(pointer, sent);
			},
		};
	}
}
