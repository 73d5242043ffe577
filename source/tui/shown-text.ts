import {printable, printableExact} from '../shared/output.js';

/**
 * Text from the model, a tool or a server, made safe for the terminal: Ink
 * strips cursor movement but keeps colours and OSC sequences (a clipboard
 * write, a window title), so every control character is shown as U+FFFD.
 */
export function shown(text: string): string {
	return printable(text.replaceAll('\r\n', '\n'));
}

/** What will run or be written (a tool's name, arguments, title, diff): shown, and its invisible and bidi characters marked (`⟨U+202E⟩`). */
export function shownExact(text: string): string {
	return printableExact(text.replaceAll('\r\n', '\n'));
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
