import {Console} from 'node:console';
import {StringDecoder} from 'node:string_decoder';
import {markInvisible} from './invisible-marks.js';
/**
 * Writes to stdout/stderr that survive a closed pipe (`i -p … | head`): an
 * EPIPE ends output quietly instead of crashing the process.
 */
let stdoutClosed = false;
process.stdout.on('error', error => {
	if ((error as NodeJS.ErrnoException).code === 'EPIPE') stdoutClosed = true;
	else throw error;
});
process.stderr.on('error', () => {});

/** stdout's own write, kept before `keepStdoutForContent` routes every other writer to stderr. */
const writeStdout: (text: string, done?: () => void) => boolean = process.stdout.write.bind(process.stdout);

export function writeOut(text: string): void {
	if (!stdoutClosed && text.length > 0) writeStdout(text);
}

/**
 * From now on stdout carries only what `writeOut` writes (the answer, the
 * JSON events): `console.log` and direct `process.stdout.write` calls, from
 * extension code above all, go to stderr, so they can never corrupt `-p`
 * output or a `--json` stream (docs/extensions/debugging.md; issue 14).
 * Whatever reaches stderr that way, and every other write to stderr, is
 * made `printable` first: an extension's escape sequences (a clipboard
 * write, a title, a cleared screen) never steer the terminal (issue 47).
 */
export function keepStdoutForContent(): void {
	const rawStderr = process.stderr.write.bind(process.stderr) as (text: string, done?: (error?: Error | null) => void) => boolean;
	const neutral = (decoder: StringDecoder): typeof process.stdout.write =>
		((chunk: string | Uint8Array, encoding?: BufferEncoding | ((error?: Error | null) => void), done?: (error?: Error | null) => void) => {
			const text = typeof chunk === 'string' ? chunk : decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
			return rawStderr(printable(text), typeof encoding === 'function' ? encoding : done);
		}) as typeof process.stdout.write;
	process.stdout.write = neutral(new StringDecoder('utf8'));
	process.stderr.write = neutral(new StringDecoder('utf8'));
	globalThis.console = new Console({stdout: process.stderr, stderr: process.stderr});
}

export function writeErr(text: string): void {
	process.stderr.write(text);
}

/**
 * Resolves once everything written to stdout and stderr reached the OS.
 * Pipes are asynchronous: exiting before this would cut the answer short
 * for a reader slower than us.
 */
export async function flushOutput(): Promise<void> {
	await Promise.all([flush(process.stdout, writeStdout, stdoutClosed), flush(process.stderr, process.stderr.write.bind(process.stderr), false)]);
}

async function flush(stream: NodeJS.WriteStream, write: (text: string, done: () => void) => boolean, closed: boolean): Promise<void> {
	if (closed || stream.destroyed || stream.writableLength === 0) return;
	// An empty write completes after every write queued before it.
	await new Promise<void>(resolve => {
		write('', () => resolve());
	});
}

/** Control characters from a model or a server would steer the terminal: shown as � in status lines. */
export function printable(text: string): string {
	return text.replaceAll(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g, '\uFFFD');
}

/**
 * What will run or be written (a tool's title, arguments, command or diff),
 * printable and with every invisible or reordering character shown as
 * `⟨U+202E⟩` (invisible-marks.ts): a bidi-aware terminal then draws it in
 * the order it runs. Answers and notices keep such characters (Hebrew text
 * with its marks, say) and use `printable`.
 */
export function printableExact(text: string): string {
	return markInvisible(printable(text));
}

/** Text an extension or a catalogue gave, for one row of a widget: its line breaks and tabs become spaces, the rest printable. */
export function printableLine(text: string): string {
	return printable(text.replaceAll(/[\r\n\t]+/g, ' '));
}
