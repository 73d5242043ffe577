import {useEffect, useRef} from 'react';
import {useStdin} from 'ink';
import {focusReport} from '../source/tui/notify/focus-report.js';

/**
 * Takes the terminal's focus reports (`ESC [ I`, `ESC [ O`) out of Ink's
 * input events before any listener sees them, and hands them to `onFocus`.
 * Ink's parser delivers each escape sequence as an event of its own, and
 * its `useInput` would give the approval keys, the dialogs' text fields and
 * the pickers' filters `[I` as typed text; the one place all of them listen
 * is the emitter, so its `emit` is wrapped while the screen is mounted (as
 * use-raw-input.ts, the one other user of this Ink internal).
 */
export function useFocusReports(onFocus: ((focused: boolean) => void) | undefined): void {
	const {internal_eventEmitter: events} = useStdin();
	const handler = useRef(onFocus);
	useEffect(() => {
		handler.current = onFocus;
	}, [onFocus]);

	useEffect(() => {
		const emit = events.emit;
		events.emit = function (this: typeof events, name: string | symbol, ...args: unknown[]): boolean {
			const focused = name === 'input' && typeof args[0] === 'string' ? focusReport(args[0]) : null;
			if (focused !== null) {
				handler.current?.(focused);
				return true;
			}

			return emit.call(this, name, ...args);
		};

		return () => {
			events.emit = emit;
		};
	}, [events]);
}
