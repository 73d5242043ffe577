import {writeSync} from 'node:fs';
import {FOCUS_REPORTING_OFF, FOCUS_REPORTING_ON} from './focus-report.js';

/** While reports are on: turns them off for a program the screen hands the terminal to (a pager), returning how to turn them on again. */
let lend: (() => () => void) | null = null;

/** Focus reports off until the returned function is called; nothing when they are not on. */
export function pauseFocusReporting(): () => void {
	return lend?.() ?? (() => {});
}

/**
 * Asks the terminal for focus reports while the chat screen runs, and
 * turns them off again whenever the screen lets the terminal go: at the end
 * (also an exit the screen did not plan, written synchronously), and while
 * the process is suspended (SIGTSTP: off, then stopped; SIGCONT: on again),
 * so a shell never receives `ESC [ I` as typed text. Returns the undo.
 */
export function enableFocusReporting(fd = 1): () => void {
	const write = (bytes: string) => {
		try {
			writeSync(fd, bytes);
		} catch {
			// The terminal is gone: nothing to turn off.
		}
	};

	const off = () => write(FOCUS_REPORTING_OFF);
	const onSuspend = () => {
		off();
		// A SIGTSTP listener replaces the default stop: stop as it would have.
		process.kill(process.pid, 'SIGSTOP');
	};

	const onResume = () => write(FOCUS_REPORTING_ON);
	// The listeners before the request: a Ctrl-Z that reaches the process
	// after the terminal was asked (this process can be preempted between the
	// two) would otherwise take node's default stop, reports still on.
	process.on('exit', off);
	process.on('SIGTSTP', onSuspend);
	process.on('SIGCONT', onResume);
	write(FOCUS_REPORTING_ON);
	lend = () => {
		off();
		return onResume;
	};

	return () => {
		lend = null;
		process.off('exit', off);
		process.off('SIGTSTP', onSuspend);
		process.off('SIGCONT', onResume);
		off();
	};
}
