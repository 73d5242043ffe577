import {Console} from 'node:console';
import {Writable} from 'node:stream';

/** A console call's text is cut here in its notice: a dumped object should not fill the scrollback (ours, not a spec limit). */
export const CONSOLE_NOTICE_CHARS = 4096;

/**
 * While the chat screen is up, console output — extension code's above
 * all — would be written between Ink's frames and break them. Instead each
 * call becomes a notice in the transcript: `console.log`, `info` and `debug`
 * as information, `warn` and `error` as warnings. (Headless modes send the
 * same output to stderr instead: shared/output.ts.) Direct writes to
 * `process.stdout` are not caught: Ink draws through that stream.
 * Returns the function that puts the console back.
 */
export function consoleToNotices(notice: (level: 'info' | 'warning', text: string) => void): () => void {
	const previous = globalThis.console;
	const stream = (level: 'info' | 'warning') =>
		new Writable({
			write(chunk: Buffer | string, _encoding, done) {
				const text = String(chunk).replace(/\n$/, '');
				if (text !== '') notice(level, `console: ${cut(text)}`);
				done();
			},
		});
	globalThis.console = new Console({stdout: stream('info'), stderr: stream('warning'), colorMode: false});
	return () => {
		globalThis.console = previous;
	};
}

function cut(text: string): string {
	return text.length <= CONSOLE_NOTICE_CHARS ? text : `${text.slice(0, CONSOLE_NOTICE_CHARS)}… (${text.length - CONSOLE_NOTICE_CHARS} more characters)`;
}
