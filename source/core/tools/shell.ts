import {stat} from 'node:fs/promises';
import * as z from 'zod/mini';
import {parseArguments} from './arguments.js';
import {describeFileError} from './file-content.js';
import {clipLine} from './format.js';
import {toParameters} from './parameters.js';
import {pathArgument, resolvePath} from './paths.js';
import {describeCommandEnd, runCommand, type CommandResult, type Secrets} from './run-command.js';
import {truncateOutput} from './truncate.js';
import {ToolInputError, type Tool, type ToolResult} from './types.js';

export const DEFAULT_SHELL_TIMEOUT_SECONDS = 120;
export const MAX_SHELL_TIMEOUT_SECONDS = 600;

const schema = z.strictObject({
	command: z.string().check(z.minLength(1), z.describe('Shell command, run with /bin/sh -c (cmd.exe on Windows)')),
	timeout: z
		._default(z.number().check(z.minimum(1), z.maximum(MAX_SHELL_TIMEOUT_SECONDS)), DEFAULT_SHELL_TIMEOUT_SECONDS)
		.check(z.describe(`Seconds before the command and everything it started are killed (default ${DEFAULT_SHELL_TIMEOUT_SECONDS}, at most ${MAX_SHELL_TIMEOUT_SECONDS})`)),
	cwd: z.optional(pathArgument('Working folder, relative to the workspace (default: the workspace)')),
});

/** `secrets`: what the command's environment leaves out besides I_APPROVAL_TOKEN (the session's API key). */
export function createShellTool(secrets: Secrets = {names: [], values: []}): Tool {
	return {
		name: 'shell',
		description: [
			'Run a shell command and return its combined stdout and stderr followed by its exit code. Stdin is closed, so interactive commands fail;',
			`it is killed with everything it started after the timeout (default ${DEFAULT_SHELL_TIMEOUT_SECONDS} s). Very long output keeps its beginning and end.`,
		].join(' '),
		parameters: toParameters(schema),
		async plan(args, context) {
			const input = parseArguments('shell', schema, args);
			const cwd = await resolvePath(context.workspace, input.cwd ?? '.');
			await requireFolder(cwd.canonical, cwd.display);
			const where = cwd.inside ? '' : ' (outside the workspace)';
			return {
				ask: {title: clipLine(`Run: ${input.command}`, 85), detail: `${input.command}\n\nin ${cwd.canonical}${where}`},
				async run() {
					const result = await runCommand(input.command, {cwd: cwd.canonical, timeoutSeconds: input.timeout, signal: context.signal, secrets});
					return shellResult(result, context.outputLimit);
				},
			};
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

function shellResult(result: CommandResult, outputLimit: number): ToolResult {
	const status = describeCommandEnd(result.end);
	const notes = result.outputHeldOpen ? '\n[processes the command left running still hold its output open; their later output is not captured]' : '';
	const body = (result.output.length > 0 ? result.output.replace(/\n$/, '') : '(no output)') + notes;
	// The status line always survives the cut.
	const output = `${truncateOutput(body, Math.max(0, outputLimit - status.length - 1))}\n${status}`;
	return {output, isError: result.end.kind !== 'exit' || result.end.code !== 0, display: status};
}
