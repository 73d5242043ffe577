/** What `withinTime` throws when the time ran out. */
export class TimedOut extends Error {
	override name = 'TimedOut';
	constructor(readonly ms: number) {
		super(`did not finish within ${ms / 1000} s`);
	}
}

/**
 * `promise`, or a TimedOut once `ms` passed: extension code (a `register`, a
 * handler, a module's import) that never settles must not hold the host.
 * After a timeout the promise settles unobserved: never an unhandled rejection.
 */
export async function withinTime<T>(promise: Promise<T>, ms: number): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	promise.catch(() => {});
	try {
		return await Promise.race([
			promise,
			new Promise<never>((_resolve, reject) => {
				timer = setTimeout(() => reject(new TimedOut(ms)), ms);
			}),
		]);
	} finally {
		clearTimeout(timer);
	}
}

/** Waits for `promise` to settle, or `ms` at most, whichever comes first; never throws. */
export async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
	let timer: NodeJS.Timeout | undefined;
	promise.catch(() => {});
	await Promise.race([
		promise.then(
			() => {},
			() => {},
		),
		new Promise(resolve => (timer = setTimeout(resolve, ms))),
	]);
	clearTimeout(timer);
}
