import {useCallback, useEffect, useState} from 'react';
import {useStdout} from 'ink';
import {ScreenStream} from '../source/tui/screen/screen-stream.js';

/** Clear the screen and the scrollback, cursor home (ED2, ED3, CUP). */
const CLEAR_TERMINAL = '\u001B[2J\u001B[3J\u001B[H';

export interface TerminalSize {
	columns: number;
	rows: number;
	/** Changes when the scrollback was cleared and must be written again: the key of the transcript's Static. */
	generation: number;
	/**
	 * Lends the terminal to a program that runs synchronously in `run` (a
	 * pager), the live area erased before and drawn again after; without the
	 * chat screen's stream (a test's), the screen is cleared after and the
	 * transcript written again.
	 */
	lend<T>(run: () => T): T;
}

/** The screen's height: the terminal's, which the chat screen's stream keeps from Ink (see ScreenStream). */
export function terminalRows(stdout: NodeJS.WriteStream | ScreenStream): number {
	return stdout instanceof ScreenStream ? stdout.terminalRows : stdout.rows || 24;
}

/**
 * The terminal's size as it changes. A resize is the stream's business
 * (ScreenStream erases the live frame as the terminal reflowed it, and Ink
 * draws it again); the transcript above stays where the terminal keeps it.
 */
export function useTerminalSize(): TerminalSize {
	const {stdout, write} = useStdout();
	const [size, setSize] = useState(() => ({columns: stdout.columns || 80, rows: terminalRows(stdout), generation: 0}));
	const lend = useCallback(
		<T>(run: () => T): T => {
			if (stdout instanceof ScreenStream) return stdout.lend(run);
			const result = run();
			stdout.write(CLEAR_TERMINAL);
			setSize(current => ({...current, generation: current.generation + 1}));
			return result;
		},
		[stdout],
	);
	useEffect(() => {
		const stopRedraw = stdout instanceof ScreenStream ? stdout.onRedraw(() => write('')) : undefined;
		const onResize = () => setSize(current => ({...current, columns: stdout.columns || 80, rows: terminalRows(stdout)}));
		stdout.on('resize', onResize);
		return () => {
			stopRedraw?.();
			stdout.off('resize', onResize);
		};
	}, [stdout, write]);
	return {...size, lend};
}
