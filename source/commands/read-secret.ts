import {StringDecoder} from 'node:string_decoder';

/** The longest key `i auth login` takes: API keys are under 200 bytes, OAuth-style tokens a few KiB; more is a paste gone wrong. */
export const MAX_SECRET_BYTES = 16 * 1024;

export type SecretRead = {kind: 'entered'; value: string} | {kind: 'cancelled'} | {kind: 'too-long'};

/** What reading needs of stdin: a stream, and raw mode when it is a terminal. */
export interface SecretInput extends NodeJS.ReadableStream {
	isTTY?: boolean;
	setRawMode?(mode: boolean): unknown;
}

/**
 * Reads one secret. From a terminal: raw mode with nothing echoed (not even
 * a mask, which would show the key's length), Backspace and Ctrl-U edit,
 * Enter ends, Ctrl-C or Ctrl-D on an empty line or a closed terminal
 * cancel. From a pipe: the first line of stdin, so scripts can log in
 * (`printenv KEY | i auth login deepseek`). `prompt` goes to `output`
 * (stderr: stdout keeps the command's result) only for a terminal.
 */
export async function readSecret(prompt: string, input: SecretInput = process.stdin, output: {write(text: string): unknown} = process.stderr): Promise<SecretRead> {
	if (input.isTTY && input.setRawMode) {
		const read = await readFromTerminal(input as SecretInput & {setRawMode(mode: boolean): unknown}, () => output.write(prompt));
		output.write('\n');
		return read;
	}

	return readFirstLine(input);
}

/** `ask` prints the prompt once echo is off: a key typed as soon as the prompt shows is never echoed. */
async function readFromTerminal(input: SecretInput & {setRawMode(mode: boolean): unknown}, ask: () => void): Promise<SecretRead> {
	const decoder = new StringDecoder('utf8');
	const typed = new TypedLine();
	input.setRawMode(true);
	ask();
	try {
		return await new Promise<SecretRead>(resolve => {
			const finish = (read: SecretRead) => {
				input.off('data', onData);
				input.off('end', onEnd);
				resolve(read);
			};

			const onData = (chunk: Buffer | string) => {
				const outcome = typed.add(typeof chunk === 'string' ? chunk : decoder.write(chunk));
				if (outcome) finish(outcome);
			};

			const onEnd = () => finish({kind: 'cancelled'});
			input.on('data', onData);
			input.on('end', onEnd);
			input.resume();
		});
	} finally {
		input.setRawMode(false);
		input.pause();
	}
}

/** The line being typed at a terminal, key by key. */
class TypedLine {
	#chars: string[] = [];
	#bytes = 0;
	#tooLong = false;
	/** The rest of an escape sequence (an arrow key, a function key) still to skip. */
	#escape: 'none' | 'start' | 'csi' | 'ss3' = 'none';

	/** Takes typed text; the outcome once the line ended or was cancelled. */
	add(text: string): SecretRead | undefined {
		for (const char of text) {
			if (this.#skipEscape(char)) continue;
			switch (char) {
				case '\r':
				case '\n': {
					return this.#end();
				}

				case '\u0003': {
					return {kind: 'cancelled'};
				}

				case '\u0004': {
					if (this.#chars.length === 0) return {kind: 'cancelled'};
					return this.#end();
				}

				case '\u007F':
				case '\b': {
					const removed = this.#chars.pop();
					if (removed !== undefined) this.#bytes -= Buffer.byteLength(removed);
					break;
				}

				case '\u0015': {
					this.#chars = [];
					this.#bytes = 0;
					this.#tooLong = false;
					break;
				}

				case '\u001B': {
					this.#escape = 'start';
					break;
				}

				default: {
					// Other control characters are keys, not text of a key.
					if (char < ' ') break;
					this.#bytes += Buffer.byteLength(char);
					if (this.#bytes > MAX_SECRET_BYTES) this.#tooLong = true;
					else this.#chars.push(char);
				}
			}
		}

		return undefined;
	}

	#end(): SecretRead {
		return this.#tooLong ? {kind: 'too-long'} : {kind: 'entered', value: this.#chars.join('')};
	}

	/** Whether `char` belongs to an escape sequence (ESC [ params final, ESC O x, ESC x). */
	#skipEscape(char: string): boolean {
		switch (this.#escape) {
			case 'none': {
				return false;
			}

			case 'start': {
				this.#escape = char === '[' ? 'csi' : char === 'O' ? 'ss3' : 'none';
				return true;
			}

			case 'csi': {
				if (char >= '@' && char <= '~') this.#escape = 'none';
				return true;
			}

			case 'ss3': {
				this.#escape = 'none';
				return true;
			}
		}
	}
}

/** The first line of a pipe (without its `\r\n` or `\n`), reading no more than the cap and one byte. */
async function readFirstLine(input: SecretInput): Promise<SecretRead> {
	const chunks: Buffer[] = [];
	let bytes = 0;
	for await (const chunk of input) {
		const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
		const newline = buffer.indexOf(0x0a);
		chunks.push(newline === -1 ? buffer : buffer.subarray(0, newline));
		bytes += newline === -1 ? buffer.length : newline;
		if (bytes > MAX_SECRET_BYTES) return {kind: 'too-long'};
		if (newline !== -1) break;
	}

	return {kind: 'entered', value: Buffer.concat(chunks).toString('utf8').replace(/\r$/, '')};
}
