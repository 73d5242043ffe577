import {fstatSync} from 'node:fs';
import {UsageError} from '../core/errors.js';

/** A prompt is text a person or a pipe sends; anything larger is a mistake. */
export const MAX_PROMPT_BYTES = 8 * 1024 * 1024;
/** Input piped beside `-p TEXT` (a diff, a log): 1 MiB is some 250k tokens, past most models' context. */
export const MAX_PIPED_INPUT_BYTES = 1024 * 1024;
/** How long `i -p` waits for the first byte of a piped prompt. */
export const FIRST_BYTE_TIMEOUT_MS = 5000;
/** How long `i -p TEXT` waits for piped input to start before it goes on without it. */
export const PIPED_INPUT_WAIT_MS = 3000;
/** How long it waits for more once input started to flow, before giving up on EOF. */
export const IDLE_TIMEOUT_MS = 30_000;

interface ReadLimits {
	firstByteMs: number;
	idleMs: number;
}

/**
 * Reads the whole prompt for `echo TEXT | i -p`. Standard input that is a
 * terminal, or a pipe that stays open without sending anything, never makes
 * the program wait forever: each case is a usage error that says what to do.
 */
export async function readPromptFromStdin(stdin: NodeJS.ReadStream = process.stdin, limits: ReadLimits = {firstByteMs: FIRST_BYTE_TIMEOUT_MS, idleMs: IDLE_TIMEOUT_MS}): Promise<string> {
	if (stdin.isTTY) throw new UsageError('-p needs the prompt: pass -p TEXT or pipe it in (echo TEXT | i -p)');
	const read = await readAll(stdin, {...limits, maxBytes: MAX_PROMPT_BYTES, what: 'the prompt'});
	if (read === null) throw new UsageError(`no prompt arrived on standard input within ${limits.firstByteMs / 1000} s; pass -p TEXT, or pipe the prompt and close stdin`);
	if (read.trim() === '') throw new UsageError('the prompt on stdin is empty; pass -p TEXT or pipe text in');
	return read;
}

/**
 * What `git diff | i -p "Review this"` pipes beside the prompt: the text, or
 * null when stdin is a terminal or a device (`< /dev/null`), ends empty, or
 * sends nothing within `firstByteMs` (`warn` says so: the run goes on without it).
 */
export async function readPipedInput(
	stdin: NodeJS.ReadStream = process.stdin,
	warn: (message: string) => void = () => {},
	limits: ReadLimits = {firstByteMs: PIPED_INPUT_WAIT_MS, idleMs: IDLE_TIMEOUT_MS},
): Promise<string | null> {
	if (stdin.isTTY || !carriesInput(stdin)) return null;
	const read = await readAll(stdin, {...limits, maxBytes: MAX_PIPED_INPUT_BYTES, what: 'the piped input'});
	if (read === null) warn(`nothing arrived on standard input within ${limits.firstByteMs / 1000} s, so the prompt goes without piped input; run with < /dev/null to skip the wait`);
	return read === null || read === '' ? null : read;
}

/** A pipe, a file or a socket may carry input; a device (`/dev/null`) or a closed descriptor does not. */
function carriesInput(stdin: NodeJS.ReadStream): boolean {
	const fd = (stdin as {fd?: unknown}).fd;
	if (typeof fd !== 'number') return true;
	try {
		const stat = fstatSync(fd);
		return stat.isFIFO() || stat.isFile() || stat.isSocket();
	} catch {
		return false;
	}
}

/**
 * All of stdin as UTF-8 text, or null when nothing came within
 * `firstByteMs`. Past `maxBytes`, a stall of `idleMs` after input began,
 * a read error, a NUL byte or invalid UTF-8: a UsageError naming `what`.
 */
async function readAll(stdin: NodeJS.ReadStream, options: ReadLimits & {maxBytes: number; what: string}): Promise<string | null> {
	const chunks: Buffer[] = [];
	let bytes = 0;
	const buffer = await new Promise<Buffer | null>((resolve, reject) => {
		let timer: NodeJS.Timeout | undefined;
		const finish = (outcome: Error | Buffer | null) => {
			clearTimeout(timer);
			stdin.off('data', onData);
			stdin.off('end', onEnd);
			stdin.off('error', onError);
			stdin.off('close', onClose);
			stdin.pause();
			stdin.unref?.();
			if (outcome instanceof Error) reject(outcome);
			else resolve(outcome);
		};

		const onData = (chunk: Buffer | string) => {
			const piece = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
			bytes += piece.length;
			if (bytes > options.maxBytes) {
				finish(new UsageError(`${options.what} on stdin is larger than ${options.maxBytes} bytes, the most i reads; nothing was sent`));
				return;
			}

			chunks.push(piece);
			clearTimeout(timer);
			timer = setTimeout(() => finish(new UsageError(`standard input stayed open without more data for ${options.idleMs / 1000} s; close it (EOF) after ${options.what}`)), options.idleMs);
		};

		const onEnd = () => finish(Buffer.concat(chunks));
		const onError = (error: Error) => finish(new UsageError(`cannot read ${options.what} from stdin: ${error.message}`));
		// Destroyed (an interrupt ends the input): no end will come.
		const onClose = () => finish(new UsageError(`standard input closed before ${options.what} ended`));
		timer = setTimeout(() => finish(null), options.firstByteMs);
		stdin.on('data', onData);
		stdin.on('end', onEnd);
		stdin.on('error', onError);
		stdin.on('close', onClose);
	});
	return buffer === null ? null : asText(buffer, options.what);
}

function asText(buffer: Buffer, what: string): string {
	const nul = buffer.indexOf(0);
	if (nul !== -1) throw new UsageError(`${what} on stdin is binary (a NUL byte at offset ${nul}); pipe text`);
	try {
		return new TextDecoder('utf-8', {fatal: true}).decode(buffer);
	} catch {
		throw new UsageError(`${what} on stdin is not UTF-8 text; pipe text (iconv can convert it)`);
	}
}
