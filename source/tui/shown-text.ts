import {printable} from '../shared/output.js';

/**
 * Text from the model, a tool or a server, made safe for the terminal: Ink
 * strips cursor movement but keeps colours and OSC sequences (a clipboard
 * write, a window title), so every control character is shown as U+FFFD.
 */
export function shown(text: string): string {
	return printable(text.replaceAll('\r\n', '\n'));
}

/** A progress text's last non-empty line: the one status line a running tool shows. */
export function lastLine(text: string): string {
	return (
		text
			.split(/\r?\n/)
			.filter(line => line.trim().length > 0)
			.at(-1) ?? ''
	);
}
