import {stat} from 'node:fs/promises';
import * as z from 'zod/mini';
import {parseArguments} from './arguments.js';
import {describeFileError} from './file-content.js';
import {clipLine} from './format.js';
import {LiveTail} from './live-tail.js';
import {toParameters} from './parameters.js';
import {pathArgument, resolvePath} from './paths.js';
import {describeCommandEnd, runCommand, type CommandResult, type Secrets} from './run-command.js';
import {truncateOutput} from './truncate.js';
import {ToolInputError, type Tool, type ToolResult} from './types.js';
import type {ShellSandbox, WrappedCommand} from '../sandbox/shell-sandbox.js';

export const DEFAULT_SHELL_TIMEOUT_SECONDS = 120;
export const MAX_SHELL_TIMEOUT_SECONDS = 600;
const SANDBOX_NOTE =
	'Commands run in a sandbox: they may write only in the workspace and the temporary folder, have no network unless the person allowed domains, and cannot read ~/.ssh, ~/.aws, ~/.gnupg or i’s config. Run a command that needs more with sandbox: false; the person is asked first.';

const schema = z.strictObject({
	command: z.string().check(z.minLength(1), z.describe('Shell command, run with /bin/sh -c (cmd.exe on Windows)')),
	timeout: z
		._default(z.number().check(z.minimum(1), z.maximum(MAX_SHELL_TIMEOUT_SECONDS)), DEFAULT_SHELL_TIMEOUT_SECONDS)
		.check(z.describe(`Seconds before the command and everything it started are killed (default ${DEFAULT_SHELL_TIMEOUT_SECONDS}, at most ${MAX_SHELL_TIMEOUT_SECONDS})`)),
	cwd: z.optional(pathArgument('Working folder, relative to the workspace (default: the workspace)')),
	sandbox: z._default(z.boolean(), true).check(z.describe('false: run outside the sandbox, when the sandbox refused something the command needs; the person is always asked first')),
});

/**
 * `secrets`: what the command's environment leaves out besides
 * I_APPROVAL_TOKEN (the session's API key); `sandbox`: where commands run
 * (shell-sandbox.ts), none: unsandboxed, as a tool run on its own.
 */
export function createShellTool(secrets: Secrets = {names: [], values: []}, sandbox?: ShellSandbox): Tool {
	return {
		name: 'shell',
		// Read for each turn: the sandbox's settings are known once the run's start read them.
		get description() {
			return [
				'Run a shell command and return its combined stdout and stderr followed by its exit code. Stdin is closed, so interactive commands fail;',
				`it is killed with everything it started after the timeout (default ${DEFAULT_SHELL_TIMEOUT_SECONDS} s). Very long output keeps its beginning and end.`,
				...(sandbox?.enabled ? [SANDBOX_NOTE] : []),
			].join(' ');
		},
		parameters: toParameters(schema),
		async plan(args, context) {
			const input = parseArguments('shell', schema, args);
			const cwd = await resolvePath(context.workspace, input.cwd ?? '.');
			await requireFolder(cwd.canonical, cwd.display);
			const where = cwd.inside ? '' : ' (outside the workspace)';
			const detail = `${input.command}\n\nin ${cwd.canonical}${where}`;
			const probe = sandbox?.enabled ? await sandbox.ready() : null;
			const run = async (wrapped?: WrappedCommand) => {
				// The output's last lines go out as progress while it runs (`tool_update`); the result is the same either way.
				const tail = context.onUpdate ? new LiveTail(text => context.onUpdate?.(text)) : null;
				try {
					const options = {cwd: cwd.canonical, timeoutSeconds: input.timeout, signal: context.signal, secrets, wrapped, ...(tail ? {onOutput: (text: string) => tail.push(text)} : {})};
					const result = await runCommand(input.command, options);
					return shellResult(result, context.outputLimit, wrapped ? wrapped.note(result.output) : null);
				} finally {
					tail?.stop();
				}
			};
			if (probe?.ok && input.sandbox) {
				return {ask: {title: clipLine(`Run: ${input.command}`, 85), detail}, run: async () => run(await sandbox!.wrap(probe, input.command))};
			}

			// The sandbox is on, and this command runs outside it: asked for, or no sandbox could start here.
			const outside = probe === null ? {} : {outsideSandbox: true};
			const title = probe === null ? 'Run' : probe.ok ? 'Run outside the sandbox' : 'Run (no sandbox could start)';
			return {ask: {title: clipLine(`${title}: ${input.command}`, 85), detail, ...outside}, run: async () => run()};
		},
	};
}

async function requireFolder(folder: string, name: string): Promise<void> {
	let isFolder;
	try {
		isFolder = (await stat(folder)).isDirectory();
	} catch (error) {
		throw new ToolInputError(`shell: cwd ${describeFileError(error, name)}`);
	}

	if (!isFolder) {
		throw new ToolInputError(`shell: cwd ${name} is not a folder`);
	}
}

function shellResult(result: CommandResult, outputLimit: number, sandboxNote: string | null): ToolResult {
	const status = describeCommandEnd(result.end);
	const failed = result.end.kind !== 'exit' || result.end.code !== 0;
	const held = result.outputHeldOpen ? '\n[processes the command left running still hold its output open; their later output is not captured]' : '';
	const notes = held + (failed && sandboxNote ? `\n${sandboxNote}` : '');
	const body = (result.output.length > 0 ? result.output.replace(/\n$/, '') : '(no output)') + notes;
	// The status line always survives the cut.
	const output = `${truncateOutput(body, Math.max(0, outputLimit - status.length - 1))}\n${status}`;
	return {output, isError: failed, display: status};
}
