import {useEffect, useLayoutEffect, useRef} from 'react';
import {useStdin, useStdout} from 'ink';
import {createKeyDecoder, type EditorAction} from '../source/tui/editor/key-decoder.js';

const BRACKETED_PASTE_ON = '\u001B[?2004h';
const BRACKETED_PASTE_OFF = '\u001B[?2004l';

/**
 * Feeds the raw input events of Ink's App to a key decoder while `isActive`,
 * and asks the terminal for bracketed paste meanwhile (`bracketedPaste`).
 *
 * This is the one place that uses Ink's internal event emitter: `useInput`
 * turns each event into a single key, so it cannot tell a paste or an IME
 * burst ending in Enter ("你好\r", one event) from typing — the text would
 * arrive as a key named "return", or lose its Enter.
 *
 * `atOnce`: the listener is attached in a layout effect, during the commit
 * that draws the widget's first frame, where a passive effect (Ink's
 * useInput's too) runs after it, so keys typed as soon as the frame shows
 * (a person who types ahead, a test that types on seeing the screen) reach
 * the widget. A constant for the widget's life. The handler is read through
 * a ref: the listener is attached once, never swapped between renders.
 */
export function useRawInput(onActions: (actions: EditorAction[]) => void, isActive: boolean, options: {atOnce?: boolean; bracketedPaste?: boolean} = {}): void {
	const {atOnce = false, bracketedPaste = true} = options;
	const {internal_eventEmitter: events, setRawMode, isRawModeSupported} = useStdin();
	const {stdout} = useStdout();
	const handler = useRef(onActions);
	handler.current = onActions;
	const useAttach = atOnce ? useLayoutEffect : useEffect;
	useAttach(() => {
		if (!isActive) return;
		const decoder = createKeyDecoder();
		const onInput = (input: string) => {
			const actions = decoder.push(input);
			if (actions.length > 0) handler.current(actions);
		};

		// Escape sequences only for a terminal: a pipe or a test's fake stream would record them as output.
		const paste = bracketedPaste && stdout.isTTY;
		if (isRawModeSupported) setRawMode(true);
		events.on('input', onInput);
		if (paste) stdout.write(BRACKETED_PASTE_ON);
		return () => {
			events.off('input', onInput);
			if (isRawModeSupported) setRawMode(false);
			if (paste) stdout.write(BRACKETED_PASTE_OFF);
		};
	}, [isActive, events, setRawMode, isRawModeSupported, stdout, bracketedPaste]);
}
