import {useEffect, useRef} from 'react';
import {useStdin, useStdout} from 'ink';
import {createKeyDecoder, type EditorAction} from '../source/tui/key-decoder.js';

const BRACKETED_PASTE_ON = '\u001B[?2004h';
const BRACKETED_PASTE_OFF = '\u001B[?2004l';

/**
 * Feeds the raw input events of Ink's App to a key decoder while `isActive`,
 * and asks the terminal for bracketed paste meanwhile.
 *
 * This is the one place that uses Ink's internal event emitter: `useInput`
 * turns each event into a single key, so it cannot tell a paste or an IME
 * burst ending in Enter ("你好\r", one event) from typing — the text would
 * arrive as a key named "return", or lose its Enter.
 */
export function useRawInput(onActions: (actions: EditorAction[]) => void, isActive: boolean): void {
	const {internal_eventEmitter: events, setRawMode, isRawModeSupported} = useStdin();
	const {stdout} = useStdout();
	const handler = useRef(onActions);
	useEffect(() => {
		handler.current = onActions;
	}, [onActions]);

	useEffect(() => {
		if (!isActive) return;
		const decoder = createKeyDecoder();
		const onInput = (input: string) => {
			const actions = decoder.push(input);
			if (actions.length > 0) handler.current(actions);
		};

		if (isRawModeSupported) setRawMode(true);
		events.on('input', onInput);
		// Escape sequences only for a terminal: a pipe or a test's fake stream would record them as output.
		if (stdout.isTTY) stdout.write(BRACKETED_PASTE_ON);
		return () => {
			events.off('input', onInput);
			if (isRawModeSupported) setRawMode(false);
			if (stdout.isTTY) stdout.write(BRACKETED_PASTE_OFF);
		};
	}, [isActive, events, setRawMode, isRawModeSupported, stdout]);
}
