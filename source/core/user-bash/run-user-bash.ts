import type {EventBus} from '../extensions/event-bus.js';
import {readUserBashAnswer, type UserBashValue} from '../extensions/event-answers.js';
import {BATCH_OUTPUT_CHARS} from '../agent/tool-output-limit.js';
import {describeCommandEnd, runCommand} from '../tools/run-command.js';
import {truncateOutput} from '../tools/truncate.js';

/**
 * What a `!` command's output may put in the context: what one shell call
 * alone in its batch may return (tool-output-limit.ts `BATCH_OUTPUT_CHARS`);
 * longer output keeps its start and end, as the shell tool's does.
 */
export const USER_BASH_OUTPUT_CHARS = BATCH_OUTPUT_CHARS;
/**
 * A `!` command is the person's own and runs while they watch: Esc or Ctrl-C
 * stops it, so the limit is only a backstop, far past the shell tool's 600 s.
 */
export const USER_BASH_TIMEOUT_SECONDS = 3600;

export interface UserBashRun {
	command: string;
	/** Combined stdout and stderr, cut to `USER_BASH_OUTPUT_CHARS` (head and tail). */
	output: string;
	/** `exit code 0`, `killed by signal SIGTERM`, `cancelled (Esc)`, `answered by extension NAME (exit code 0)`. */
	status: string;
	/** The exit code, or null when the command was killed, cancelled or timed out. */
	exitCode: number | null;
	cancelled: boolean;
	/** The extension whose `UserBash` handler gave the result instead of the shell, or null. */
	replacedBy: string | null;
}

export interface UserBashOptions {
	workspace: string;
	signal: AbortSignal;
	events: EventBus | null;
	/** `!!`: shown, never added to the context (told to UserBash handlers). */
	excludeFromContext: boolean;
	/** Output as it comes, for a live view. */
	onOutput?: (text: string) => void;
}

/**
 * Runs a person's `!` command in the workspace: no approval (it is theirs),
 * the shell tool's shell and process-group handling (run-command.ts), stdin
 * closed. `UserBash` handlers see it first and may answer with the result
 * instead (spec/extensions.md §5, a transform: chained, a failing handler keeps the
 * previous value). Throws only when the shell cannot be started.
 */
export async function runUserBash(command: string, options: UserBashOptions): Promise<UserBashRun> {
	const value: UserBashValue = {command, cwd: options.workspace, excludeFromContext: options.excludeFromContext, result: null};
	const answered = options.events?.has('UserBash') ? await options.events.transform('UserBash', value, readUserBashAnswer) : value;
	if (answered.result) {
		const {output, exitCode, extension} = answered.result;
		options.onOutput?.(output);
		return {command, output: truncateOutput(output, USER_BASH_OUTPUT_CHARS), status: `answered by extension ${extension} (exit code ${exitCode})`, exitCode, cancelled: false, replacedBy: extension};
	}

	let result;
	try {
		result = await runCommand(command, {cwd: options.workspace, timeoutSeconds: USER_BASH_TIMEOUT_SECONDS, signal: options.signal, ...(options.onOutput ? {onOutput: options.onOutput} : {})});
	} catch (error) {
		// Stopped before the shell started (Esc while the handlers ran or the process module loaded): cancelled, not failed.
		if (!options.signal.aborted) throw error;
		result = {output: '', end: {kind: 'aborted'} as const, outputHeldOpen: false};
	}

	const held = result.outputHeldOpen ? '\n[processes the command left running still hold its output open; their later output is not captured]' : '';
	return {
		command,
		output: truncateOutput(result.output.replace(/\n$/, '') + held, USER_BASH_OUTPUT_CHARS),
		status: describeCommandEnd(result.end, 'cancelled; the command and everything it started were stopped'),
		exitCode: result.end.kind === 'exit' ? result.end.code : null,
		cancelled: result.end.kind === 'aborted',
		replacedBy: null,
	};
}
