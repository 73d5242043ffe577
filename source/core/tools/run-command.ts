import {StringDecoder} from 'node:string_decoder';
import {HeadTailBuffer} from './head-tail-buffer.js';
import {KILL_GRACE_MS, stopGroup, type GroupStop} from './stop-group.js';
import {ToolRunError} from './types.js';

/** Combined stdout+stderr kept in memory: the first and the last half MiB. */
export const MAX_COMMAND_OUTPUT_BYTES = 1024 * 1024;
/** After the shell exits, how long to wait for processes it left running that still hold the output open. */
const HELD_OUTPUT_GRACE_MS = 500;
/** Secrets the command must never see (spec/platform.md §2), besides the session's own (`CommandOptions.secrets`). */
const HIDDEN_VARIABLES = new Set(['I_APPROVAL_TOKEN']);

/** What else the command must not see: the model's API key, by its variable's name and by its value wherever it is. */
export interface Secrets {
	names: readonly string[];
	values: readonly string[];
}

export type CommandEnd = {kind: 'exit'; code: number} | {kind: 'signal'; signal: string} | {kind: 'timeout'; seconds: number} | {kind: 'aborted'};

/** How a command ended, in words (the shell tool's result, a `!` command's status); `aborted`: what stopping it is called where it was stopped. */
export function describeCommandEnd(end: CommandEnd, aborted = 'aborted; the command and everything it started were killed'): string {
	switch (end.kind) {
		case 'exit': {
			return `exit code ${end.code}`;
		}

		case 'signal': {
			return `killed by signal ${end.signal}`;
		}

		case 'timeout': {
			return `timed out after ${end.seconds}s; the command and everything it started were killed`;
		}

		case 'aborted': {
			return aborted;
		}
	}
}

export interface CommandResult {
	/** Combined stdout+stderr, middle dropped past `MAX_COMMAND_OUTPUT_BYTES`. */
	output: string;
	end: CommandEnd;
	/** The shell exited but something it started kept the output open; later output was not captured. */
	outputHeldOpen: boolean;
}

export interface CommandOptions {
	cwd: string;
	timeoutSeconds: number;
	signal: AbortSignal;
	secrets?: Secrets;
	/** Each piece of output as it comes, decoded (a `!` command shows it live); what is kept is still the head and tail. */
	onOutput?: (text: string) => void;
	/** The program and arguments that run `/bin/sh -c COMMAND` in the sandbox (shell-sandbox.ts); absent: the shell itself. */
	wrapped?: {file: string; args: string[]} | undefined;
}

/**
 * Run a shell command in its own process group with stdin closed. On timeout
 * or abort the whole group gets SIGTERM, then SIGKILL after 2 s if any of it
 * is still there, so children and grandchildren go too. Throws `ToolRunError` only when the shell cannot
 * be started.
 */
export async function runCommand(command: string, options: CommandOptions): Promise<CommandResult> {
	// execa loads on first use, so turns without a shell call never pay for it.
	const {execa} = await import('execa');
	options.signal.throwIfAborted();
	const windows = process.platform === 'win32';
	const subprocess = execa(
		options.wrapped?.file ?? (windows ? (process.env.ComSpec ?? 'cmd.exe') : '/bin/sh'),
		// The same quoting Node's own `shell: true` uses for cmd.exe.
		options.wrapped?.args ?? (windows ? ['/d', '/s', '/c', `"${command}"`] : ['-c', command]),
		{
			cwd: options.cwd,
			env: commandEnvironment(options.secrets),
			extendEnv: false,
			detached: true,
			stdin: 'ignore',
			all: true,
			buffer: false,
			reject: false,
			windowsVerbatimArguments: windows,
			windowsHide: true,
		},
	);

	return new Promise<CommandResult>((resolve, reject) => {
		const output = new HeadTailBuffer(MAX_COMMAND_OUTPUT_BYTES);
		let stoppedBy: 'timeout' | 'aborted' | null = null;
		let exit: {code: number | null; signal: string | null} | null = null;
		let outputHeldOpen = false;
		let settled = false;
		let heldTimer: NodeJS.Timeout | undefined;
		let stopping: GroupStop | undefined;

		const decoder = options.onOutput ? new StringDecoder('utf8') : null;
		subprocess.all?.on('data', (chunk: Buffer) => {
			output.push(chunk);
			if (decoder) options.onOutput?.(decoder.write(chunk));
		});

		const terminate = (reason: 'timeout' | 'aborted') => {
			if (stoppedBy || exit) {
				return;
			}

			stoppedBy = reason;
			stopping = stopGroup(subprocess.pid);
		};

		const timeoutTimer = setTimeout(() => {
			terminate('timeout');
		}, options.timeoutSeconds * 1000);
		const onAbort = () => {
			terminate('aborted');
		};

		options.signal.addEventListener('abort', onAbort, {once: true});

		const settle = (finish: () => void) => {
			if (settled) {
				return;
			}

			settled = true;
			clearTimeout(timeoutTimer);
			clearTimeout(heldTimer);
			options.signal.removeEventListener('abort', onAbort);
			finish();
		};

		subprocess.once('error', error => {
			if (!exit) {
				settle(() => {
					reject(new ToolRunError(`shell: could not start the command: ${error.message}`));
				});
			}
		});

		subprocess.once('exit', (code, signal) => {
			exit = {code, signal};
			clearTimeout(timeoutTimer);
			// The shell led the group: if nothing it started is left, there is nothing to SIGKILL.
			stopping?.leaderExited();

			// A background process may keep the pipe open for ever: stop listening after a grace period (longer after a kill, to let SIGKILL land).
			heldTimer = setTimeout(
				() => {
					outputHeldOpen = true;
					subprocess.stdout?.destroy();
					subprocess.stderr?.destroy();
				},
				stoppedBy ? KILL_GRACE_MS + HELD_OUTPUT_GRACE_MS : HELD_OUTPUT_GRACE_MS,
			);
		});

		subprocess.once('close', () => {
			settle(() => {
				resolve({output: output.toString(), end: commandEnd(stoppedBy, exit, options.timeoutSeconds), outputHeldOpen});
			});
		});
	});
}

function commandEnd(stoppedBy: 'timeout' | 'aborted' | null, exit: {code: number | null; signal: string | null} | null, timeoutSeconds: number): CommandEnd {
	if (stoppedBy === 'timeout') {
		return {kind: 'timeout', seconds: timeoutSeconds};
	}

	if (stoppedBy === 'aborted') {
		return {kind: 'aborted'};
	}

	return exit?.code === null || exit?.code === undefined ? {kind: 'signal', signal: exit?.signal ?? 'unknown'} : {kind: 'exit', code: exit.code};
}

/** The normal environment less the secrets; names compare case-insensitively, as Windows does. */
function commandEnvironment(secrets: Secrets = {names: [], values: []}): Record<string, string | undefined> {
	const names = new Set([...HIDDEN_VARIABLES, ...secrets.names.map(name => name.toUpperCase())]);
	const values = new Set(secrets.values.filter(value => value !== ''));
	return Object.fromEntries(Object.entries(process.env).filter(([name, value]) => !names.has(name.toUpperCase()) && !(value !== undefined && values.has(value))));
}
