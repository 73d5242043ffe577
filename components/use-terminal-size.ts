import {useCallback, useEffect, useState} from 'react';
import {useStdout} from 'ink';

/** Clear the screen and the scrollback, cursor home (ED2, ED3, CUP). */
const CLEAR_TERMINAL = '\u001B[2J\u001B[3J\u001B[H';

/** A burst of resizes (a window dragged) repaints once, this long after the last. */
const REPAINT_DELAY_MS = 120;

export interface TerminalSize {
	columns: number;
	rows: number;
	/** Changes when the scrollback was cleared and must be written again: the key of the transcript's Static. */
	generation: number;
	/** Clears the screen and the scrollback and writes the transcript again: after another program drew on the terminal (a pager). */
	repaint(): void;
}

/**
 * The terminal's size, and a repaint after it changes.
 *
 * Ink erases its live area by counting lines up from the cursor, but a
 * terminal that reflows on resize moves rows under it: a narrower window
 * wraps full-width rows, a shorter one drops the empty row below the cursor
 * (which stands at the caret, not at the bottom). Counting then erases rows
 * of the scrollback or leaves stale ones. So after a resize settles, the
 * screen and scrollback are cleared and the transcript is written again at
 * the new width: each line once, wrapped as it should be.
 */
export function useTerminalSize(): TerminalSize {
	const {stdout} = useStdout();
	const [size, setSize] = useState(() => ({columns: stdout.columns || 80, rows: stdout.rows || 24, generation: 0}));
	const repaint = useCallback(() => {
		stdout.write(CLEAR_TERMINAL);
		setSize(current => ({...current, generation: current.generation + 1}));
	}, [stdout]);
	useEffect(() => {
		let timer: NodeJS.Timeout | undefined;
		const onResize = () => {
			setSize(current => ({...current, columns: stdout.columns || 80, rows: stdout.rows || 24}));
			clearTimeout(timer);
			timer = setTimeout(repaint, REPAINT_DELAY_MS);
		};

		stdout.on('resize', onResize);
		return () => {
			clearTimeout(timer);
			stdout.off('resize', onResize);
		};
	}, [stdout, repaint]);
	return {...size, repaint};
}
