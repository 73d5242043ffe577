import path from 'node:path';
import {literalBase} from '../tools/glob.js';
import {resolvePath, type ResolvedPath} from '../tools/paths.js';
import {splitShellCommand, type ShellDialect} from './shell-commands.js';
import {judgedCommands} from './shell-variants.js';

/** What a call's rules with a pattern are matched against. */
export type CallSubjects =
	| {
			kind: 'shell';
			/** The simple commands as written; null when the line is not understood (no pattern allows it). */
			commands: string[][] | null;
			/** What deny and ask rules judge (shell-variants.ts). */
			judged: string[][];
			/** A command run outside the workspace is never allowed by a pattern: `rm -rf build` means the workspace's build. */
			cwdInside: boolean;
	  }
	| {kind: 'paths'; paths: ResolvedPath[]}
	| {kind: 'none'};

/**
 * The command line of a `shell` call, or the paths a file tool reaches,
 * resolved as the tool resolves them (symlinks too). The arguments were
 * checked by the tool's plan before approval; a missing one gives no subject,
 * which no pattern allows.
 */
export async function callSubjects(name: string, args: Record<string, unknown>, workspace: string, dialect: ShellDialect): Promise<CallSubjects> {
	if (name === 'shell') {
		const command = text(args.command) ?? '';
		const cwd = await resolvePath(workspace, text(args.cwd) ?? '.');
		return {kind: 'shell', commands: command === '' ? null : splitShellCommand(command, dialect).commands, judged: judgedCommands(command, dialect), cwdInside: cwd.inside};
	}

	const inputs = pathInputs(name, args);
	if (inputs === null) return {kind: 'none'};
	return {kind: 'paths', paths: await Promise.all(inputs.map(async input => resolvePath(workspace, input)))};
}

/** Where each file tool's arguments name paths (tools/*.ts); a search or glob reaches the folder it walks. */
function pathInputs(name: string, args: Record<string, unknown>): string[] | null {
	switch (name) {
		case 'read':
		case 'write': {
			return Array.isArray(args.files) ? args.files.flatMap(file => text((file as {path?: unknown} | null)?.path) ?? []) : [];
		}

		case 'edit': {
			return [text(args.path) ?? []].flat();
		}

		case 'view_image': {
			return Array.isArray(args.paths) ? args.paths.flatMap(entry => text(entry) ?? []) : [];
		}

		case 'search': {
			return [text(args.path) ?? '.'];
		}

		case 'glob': {
			return [path.join(text(args.path) ?? '.', literalBase(text(args.pattern) ?? ''))];
		}

		default: {
			return null;
		}
	}
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' ? value : undefined;
}
