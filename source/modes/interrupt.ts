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

	const onInt = () => handler('SIGINT');
	const onTerm = () => handler('SIGTERM');
	process.on('SIGINT', onInt);
	process.on('SIGTERM', onTerm);
	return {
		dispose() {
			process.off('SIGINT', onInt);
			process.off('SIGTERM', onTerm);
		},
		exitCode: () => (received ? signalExitCode(received) : null),
	};
}

function signalExitCode(signal: 'SIGINT' | 'SIGTERM'): number {
	return signal === 'SIGINT' ? exitCodes.interrupted : 143;
}
