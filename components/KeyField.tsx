import {useRef} from 'react';
import {Box, Text} from 'ink';
import type {PendingKey} from '../source/tui/brokers/key-broker.js';
import {useRawInput} from './use-raw-input.js';
import {colour} from '../source/tui/theme/active-palette.js';

/** What the field holds at most: a paste far past any key is cut here, and the asker's check (typed-key.ts) then refuses it as too long. */
export const MAX_KEY_FIELD_CHARS = 16 * 1024 + 1;

/**
 * The field for an API key (the first-run setup): what is typed or pasted
 * is kept in a ref, never in state, so no frame ever draws it, not even as
 * a mask (which would show its length). Backspace and Ctrl-U edit, Enter
 * gives it to the asker, Esc goes back a step, Ctrl-C leaves (`onLeave`).
 */
export function KeyField({pending, onLeave}: {pending: PendingKey; onLeave?: (() => void) | undefined}) {
	const typed = useRef('');
	useRawInput(
		actions => {
			for (const action of actions) {
				switch (action.type) {
					case 'insert': {
						// A paste's line breaks end nothing here: a key is one line.
						typed.current = (typed.current + action.text.replaceAll(/[\r\n]/g, '')).slice(0, MAX_KEY_FIELD_CHARS);
						break;
					}

					case 'backspace': {
						typed.current = [...typed.current].slice(0, -1).join('');
						break;
					}

					case 'killToLineStart': {
						typed.current = '';
						break;
					}

					case 'submit': {
						const key = typed.current;
						typed.current = '';
						pending.answer(key);
						return;
					}

					case 'escape': {
						typed.current = '';
						pending.answer(null);
						return;
					}

					case 'ctrlC': {
						typed.current = '';
						if (onLeave) onLeave();
						else pending.answer(null);
						return;
					}

					default:
				}
			}
		},
		true,
		{atOnce: true, bracketedPaste: false},
	);

	return (
		<Box flexDirection="column" borderStyle="round" borderColor={colour('accent')} paddingX={1}>
			<Text bold color={colour('accent')}>
				{pending.request.title}
			</Text>
			<Box>
				<Text color={colour('accent')}>key › </Text>
				<Text dimColor>(typing is not shown)</Text>
			</Box>
			<Text dimColor>{pending.request.hint}</Text>
			<Text dimColor>paste or type the key · Enter to save it · Esc to go back · Ctrl-C to leave</Text>
		</Box>
	);
}
