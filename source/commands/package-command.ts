import {checkedDirs} from '../core/config/checked-dirs.js';
import {errorMessage, exitCodes, UsageError} from '../core/errors.js';
import {globalScope, projectScope, type PackageScope} from '../core/extensions/package-scope.js';
import {resolveWorkspace} from '../core/session/start-plugins.js';
import {writeErr, writeOut} from '../shared/output.js';

/** The flags `i install` and `i uninstall` share. */
export const packageFlags = {
	cwd: {type: 'string', shortFlag: 'C'},
	global: {type: 'boolean', shortFlag: 'g', default: false},
	json: {type: 'boolean', default: false},
} as const;

export interface Scopes {
	scope: PackageScope;
	/** The other scope, where a hint may look: the global one for a project command; with --global the workspace's, when there is one. */
	other: PackageScope | undefined;
	/** The workspace (-C), undefined with --global. */
	workspace: string | undefined;
}

/** The scope of `--global` (`<config_dir>`) or of the workspace (`-C DIR`, `.i/`). */
export function packageScopes(flags: {global: boolean; cwd?: string | undefined}): Scopes {
	const global = globalScope(checkedDirs().config_dir);
	if (!flags.global) {
		const workspace = resolveWorkspace(flags.cwd);
		return {scope: projectScope(workspace), other: global, workspace};
	}

	let other: PackageScope | undefined;
	try {
		other = projectScope(resolveWorkspace(flags.cwd));
	} catch {
		other = undefined;
	}

	return {scope: global, other, workspace: undefined};
}

/** The one word a package command takes (SPEC, NAME); none or several is a usage error. `what` names it: `the package to install`. */
export function oneWord(usage: string, what: string, input: string[]): string {
	if (input.length === 1) return input[0]!;
	throw new UsageError(input.length === 0 ? `name ${what}: ${usage}` : `takes one package at a time, not ${input.length} (${input.join(' ')}): ${usage}`);
}

/** Writes the result: its text, or with --json one JSON line. */
export function writeResult(json: boolean, result: unknown, text: string): number {
	writeOut(json ? `${JSON.stringify(result)}\n` : text);
	return exitCodes.ok;
}

/**
 * One stderr line (and whatever the message holds after it, npm's output).
 * A UsageError (a bad flag, a broken settings file, npm not found, a
 * package that is no extension, an unknown name) exits 2; anything else
 * (npm itself failed, another install holds the prefix) exits 1.
 */
export function writeFailure(command: string, error: unknown): number {
	writeErr(`i: ${command}: ${errorMessage(error)}\n`);
	return error instanceof UsageError ? exitCodes.usage : exitCodes.turnFailed;
}
