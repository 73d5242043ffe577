import {exitCodes} from '../core/errors.js';

/** The signals that end a run: Ctrl-C, a `kill`, the terminal closing. */
export type InterruptSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

export class InterruptError extends Error {
	override name = 'InterruptError';
	constructor(readonly signal: InterruptSignal) {
		super(`interrupted by ${signal}`);
	}
}

/**
 * The first SIGINT, SIGTERM or SIGHUP aborts the running work, which then saves its last
 * complete checkpoint and exits; a second one exits at once (the session
 * lock is still released by its exit handler).
 */
export function handleInterrupts(controller: AbortController, onIdle?: () => void): {dispose(): void; exitCode(): number | null} {
	let received: InterruptSignal | null = null;
	const handler = (signal: InterruptSignal) => {
		if (received) process.exit(signalExitCode(signal));
		received = signal;
		controller.abort(new InterruptError(signal));
		onIdle?.();
	};

	return {...onSignals(handler), exitCode: () => (received ? signalExitCode(received) : null)};
}

/**
 * Until a head listens for interrupts (handleInterrupts), start-up has
 * opened nothing that must be saved, so SIGINT, SIGTERM or SIGHUP ends the process
 * at once with its exit code: without this, node's default would kill it
 * by the signal, skipping the exit handlers that stop the workers already
 * started and release the registry lock. Start-up itself never waits on
 * anything a signal could not cut short (config files are opened without
 * blocking, see core/fs/read-config-file.ts), so exit() returns at once.
 */
export function exitOnInterrupt(): {dispose(): void} {
	return onSignals(signal => process.exit(signalExitCode(signal)));
}

const signals: readonly InterruptSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Listens for SIGINT, SIGTERM and SIGHUP until disposed. */
function onSignals(handle: (signal: InterruptSignal) => void): {dispose(): void} {
	const listeners = signals.map(signal => [signal, () => handle(signal)] as const);
	for (const [signal, listener] of listeners) process.on(signal, listener);
	return {
		dispose() {
			for (const [signal, listener] of listeners) process.off(signal, listener);
		},
	};
}

/** 128 and the signal's number, as a shell reports a process it ended; SIGINT's is exitCodes.interrupted (130). */
function signalExitCode(signal: InterruptSignal): number {
	return signal === 'SIGINT' ? exitCodes.interrupted : signal === 'SIGTERM' ? 143 : 129;
}
