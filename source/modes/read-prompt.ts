import {StringDecoder} from 'node:string_decoder';
import {UsageError} from '../core/errors.js';

/** A prompt is text a person or a pipe sends; anything larger is a mistake. */
export const MAX_PROMPT_BYTES = 8 * 1024 * 1024;
/** How long `i -p` waits for the first byte of a piped prompt. */
export const FIRST_BYTE_TIMEOUT_MS = 5000;
/** How long it waits for more once input started to flow, before giving up on EOF. */
export const IDLE_TIMEOUT_MS = 30_000;

/**
 * Reads the whole prompt for `echo TEXT | i -p`. Standard input that is a
 * terminal, or a pipe that stays open without sending anything, never makes
 * the program wait forever: each case is a usage error that says what to do.
 */
export async function readPromptFromStdin(stdin: NodeJS.ReadStream = process.stdin, limits = {firstByteMs: FIRST_BYTE_TIMEOUT_MS, idleMs: IDLE_TIMEOUT_MS}): Promise<string> {
	if (stdin.isTTY) throw new UsageError('-p needs the prompt: pass -p TEXT or pipe it in (echo TEXT | i -p)');
	const decoder = new StringDecoder('utf8');
	let text = '';
	let bytes = 0;
	return new Promise<string>((resolve, reject) => {
		let timer: NodeJS.Timeout | undefined;
		const arm = (ms: number, message: string) => {
			clearTimeout(timer);
			timer = setTimeout(() => finish(new UsageError(message)), ms);
		};

		const finish = (error?: Error) => {
			clearTimeout(timer);
			stdin.off('data', onData);
			stdin.off('end', onEnd);
			stdin.off('error', onError);
			stdin.off('close', onClose);
			stdin.pause();
			stdin.unref?.();
			if (error) reject(error);
			else resolve(text);
		};

		const onData = (chunk: Buffer) => {
			bytes += chunk.length;
			if (bytes > MAX_PROMPT_BYTES) {
				finish(new UsageError(`the prompt on stdin is larger than ${MAX_PROMPT_BYTES} bytes`));
				return;
			}

			text += decoder.write(chunk);
			arm(limits.idleMs, `standard input stayed open without more data for ${limits.idleMs / 1000} s; close it (EOF) after the prompt`);
		};

		const onEnd = () => {
			text += decoder.end();
			if (text.trim() === '') finish(new UsageError('the prompt on stdin is empty; pass -p TEXT or pipe text in'));
			else finish();
		};

		const onError = (error: Error) => finish(new UsageError(`cannot read the prompt from stdin: ${error.message}`));
		// Destroyed (an interrupt ends the input): no end will come.
		const onClose = () => finish(new UsageError('standard input closed before the prompt ended'));
		arm(limits.firstByteMs, `no prompt arrived on standard input within ${limits.firstByteMs / 1000} s; pass -p TEXT, or pipe the prompt and close stdin`);
		stdin.on('data', onData);
		stdin.on('end', onEnd);
		stdin.on('error', onError);
		stdin.on('close', onClose);
	});
}
