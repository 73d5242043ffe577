import {useEffect, useReducer, useRef} from 'react';
import {Text} from 'ink';
import {colour} from '../source/tui/theme/active-palette.js';

const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const FRAME_MS = 100;

/**
 * Mounted only while a turn runs: an idle screen has no timer at all. The
 * glyph follows the clock, so a screen already redrawn for streamed text
 * moves it along for free; the timer draws a frame only when nothing else
 * did for a whole frame (waiting for the model, a tool running).
 */
export function Spinner({label}: {label: string}) {
	const now = Date.now();
	const drawn = useRef(now);
	drawn.current = now;
	const [, redraw] = useReducer((count: number) => count + 1, 0);
	useEffect(() => {
		const timer = setInterval(() => {
			if (Date.now() - drawn.current >= FRAME_MS) redraw();
		}, FRAME_MS);
		return () => clearInterval(timer);
	}, []);
	return (
		<Text color={colour('accent')}>
			{frames[Math.floor(now / FRAME_MS) % frames.length]} <Text dimColor>{label}</Text>
		</Text>
	);
}
