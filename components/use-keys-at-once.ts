import {useLayoutEffect, useRef} from 'react';
import {useStdin} from 'ink';
import {createKeyDecoder, type EditorAction} from '../source/tui/key-decoder.js';

/**
 * Hears the keyboard from the very frame a widget first appears in: the
 * listener is attached in a layout effect, during the commit that draws
 * the frame, where Ink's useInput attaches its own in a passive effect
 * after it, so keys typed as soon as the frame shows (a person who types
 * ahead, a test that types on seeing the screen) would reach nobody. Raw
 * mode is held meanwhile (Ink counts the holders). The handler is read
 * through a ref: the listener is attached once, never swapped between
 * renders.
 */
export function useKeysAtOnce(onActions: (actions: EditorAction[]) => void): void {
	const {internal_eventEmitter: events, setRawMode, isRawModeSupported} = useStdin();
	const handler = useRef(onActions);
	handler.current = onActions;
	useLayoutEffect(() => {
		const decoder = createKeyDecoder();
		const onInput = (input: string) => {
			const actions = decoder.push(input);
			if (actions.length > 0) handler.current(actions);
		};

		if (isRawModeSupported) setRawMode(true);
		events.on('input', onInput);
		return () => {
			events.off('input', onInput);
			if (isRawModeSupported) setRawMode(false);
		};
	}, [events, setRawMode, isRawModeSupported]);
}
