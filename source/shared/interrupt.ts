import {exitCodes} from '../core/errors.js';

export class InterruptError extends Error {
	override name = 'InterruptError';
	constructor(readonly signal: 'SIGINT' | 'SIGTERM') {
		super(`interrupted by ${signal}`);
	}
}

/**
 * The first SIGINT/SIGTERM aborts the running work, which then saves its last
 * complete checkpoint and exits; a second one exits at once (the session
 * lock is still released by its exit handler).
 */
export function handleInterrupts(controller: AbortController, onIdle?: () => void): {dispose(): void; exitCode(): number | null} {
	let received: 'SIGINT' | 'SIGTERM' | null = null;
	const handler = (signal: 'SIGINT' | 'SIGTERM') => {
		if (received) process.exit(signalExitCode(signal));
		received = signal;
		controller.abort(new InterruptError(signal));
		onIdle?.();
	};

	return {...onSignals(handler), exitCode: () => (received ? signalExitCode(received) : null)};
}

/**
 * Until a head listens for interrupts (handleInterrupts), start-up has
 * opened nothing that must be saved, so SIGINT or SIGTERM ends the process
 * at once with its exit code: without this, node's default would kill it
 * by the signal, skipping the exit handlers that stop the workers already
 * started and release the registry lock. Start-up itself never waits on
 * anything a signal could not cut short (config files are opened without
 * blocking, see core/fs/read-config-file.ts), so exit() returns at once.
 */
export function exitOnInterrupt(): {dispose(): void} {
	return onSignals(signal => process.exit(signalExitCode(signal)));
}

/** Listens for SIGINT and SIGTERM until disposed. */
function onSignals(handle: (signal: 'SIGINT' | 'SIGTERM') => void): {dispose(): void} {
	const onInt = () => handle('SIGINT');
	const onTerm = () => handle('SIGTERM');
	process.on('SIGINT', onInt);
	process.on('SIGTERM', onTerm);
	return {
		dispose() {
			process.off('SIGINT', onInt);
			process.off('SIGTERM', onTerm);
		},
	};
}

function signalExitCode(signal: 'SIGINT' | 'SIGTERM'): number {
	return signal === 'SIGINT' ? exitCodes.interrupted : 143;
}
