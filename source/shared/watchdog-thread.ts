/** What the watchdog thread is started with (extension-watchdog.ts). */
export interface WatchdogData {
	/** One Int32 the main thread adds 1 to every beat. */
	beats: SharedArrayBuffer;
	/** The global symbol's key under which the main thread keeps its probes (`hold`, `end`). */
	key: string;
	noticeMs: number;
	limitMs: number;
	pollMs: number;
}

/**
 * The watchdog's thread, run from its source text (so it needs nothing of
 * the bundle it came from, and imports only node's own modules): it reads
 * the main thread's beat every `pollMs`. When no beat came for `noticeMs`,
 * it asks the main thread, through the inspector (which reaches a thread
 * busy in JavaScript between two of its instructions), whose code holds
 * it (`hold`); if an extension's, the main thread has said so and given
 * the signals back to the system. Still no beat at `limitMs`: `end`, and
 * when it answers that the extension still holds it, SIGTERM, which now
 * ends the process. A beat sets everything back. Each
 * question has its own inspector session, closed before anything else
 * happens: a session still open would make node wait for it at exit.
 */
export function watchdogThread(): void {
	// Not require: a bundler renames it in the code this text is taken from.
	const {workerData} = process.getBuiltinModule('node:worker_threads');
	const {Session} = process.getBuiltinModule('node:inspector');
	const {beats, key, noticeMs, limitMs, pollMs} = workerData as WatchdogData;
	const view = new Int32Array(beats);
	let seen = Atomics.load(view, 0);
	let since = Date.now();
	let state: 'free' | 'asking' | 'held' | 'elsewhere' | 'ending' = 'free';
	const ask = (probe: 'hold' | 'end', heldMs: number, answer: (value: unknown) => void) => {
		const session = new Session();
		try {
			session.connectToMainThread();
		} catch (error) {
			// A node without the inspector: the hold cannot be told apart, and stays as it would without the watchdog.
			process.getBuiltinModule('node:fs').writeSync(2, `i: the extension watchdog cannot look into the main thread: ${(error as Error).message}\n`);
			answer(undefined);
			return;
		}

		const expression = `globalThis[Symbol.for(${JSON.stringify(key)})].${probe}(${heldMs})`;
		session.post('Runtime.evaluate', {expression, returnByValue: true}, (error, result) => {
			session.disconnect();
			answer(error ? undefined : (result as {result?: {value?: unknown}} | undefined)?.result?.value);
		});
	};

	setInterval(() => {
		const now = Atomics.load(view, 0);
		if (now !== seen) {
			seen = now;
			since = Date.now();
			if (state !== 'ending') state = 'free';
			return;
		}

		const heldMs = Date.now() - since;
		const beat = seen;
		if (state === 'free' && heldMs >= noticeMs) {
			state = 'asking';
			ask('hold', heldMs, value => {
				// An answer that comes after a beat is about a hold that has ended.
				if (state === 'asking' && beat === seen) state = value === true ? 'held' : 'elsewhere';
			});
		} else if (state === 'held' && heldMs >= limitMs) {
			state = 'ending';
			ask('end', heldMs, value => {
				if (value === true) process.kill(process.pid, 'SIGTERM');
				else state = 'free';
			});
		}
	}, pollMs);
}
