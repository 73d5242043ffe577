import {spawnSync} from 'node:child_process';
import {closeSync, mkdtempSync, openSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pauseFocusReporting} from './notify/focus-reporting.js';

/** The pager when $PAGER is unset or empty, as git and man choose. */
export const DEFAULT_PAGER = 'less';

/** The shell's exit status for a command it could not find (127) or not execute (126). */
const SHELL_NOT_FOUND = 127;
const SHELL_NOT_EXECUTABLE = 126;

/** Hides the cursor again: a pager leaves it shown, and the screen hid it once, at its first frame. */
const HIDE_CURSOR = '\u001B[?25l';

/**
 * Shows `text` in the person's pager and waits for it to end: `$PAGER`
 * (default `less`) run by the shell as git runs it, the text on its stdin,
 * the terminal its stdout. The text comes from a private temporary file
 * rather than a pipe, so a pager quit before it read everything breaks
 * nothing. Synchronous on purpose: while the pager owns the terminal
 * nothing of this process may draw or read a key, and a blocked event loop
 * does neither. The terminal stays in the screen's raw mode, so Ctrl-C in
 * the pager is a key for it, not a SIGINT to the process group that would
 * end the chat too. Returns why it could not be shown, or null.
 */
export function showInPager(text: string, env: NodeJS.ProcessEnv = process.env, stdout: NodeJS.WriteStream = process.stdout): string | null {
	const pager = env.PAGER?.trim() || DEFAULT_PAGER;
	let folder: string | undefined;
	let result;
	try {
		folder = mkdtempSync(join(tmpdir(), 'i-pager-'));
		const file = join(folder, 'text');
		writeFileSync(file, text, {mode: 0o600});
		const input = openSync(file, 'r');
		const resumeReports = pauseFocusReporting();
		try {
			result = spawnSync(pager, {shell: true, stdio: [input, 'inherit', 'inherit'], env});
		} finally {
			resumeReports();
			closeSync(input);
			if (stdout.isTTY) stdout.write(HIDE_CURSOR);
		}
	} catch (error) {
		return `the text could not be handed to the pager: ${(error as Error).message}`;
	} finally {
		if (folder !== undefined) rmSync(folder, {recursive: true, force: true});
	}

	const which = `the pager "${pager}"`;
	if (result.error) return `${which} could not run: ${result.error.message}`;
	if (result.status === SHELL_NOT_FOUND || result.status === SHELL_NOT_EXECUTABLE) {
		return `${which} could not run: the shell found no such program, or could not execute it (exit ${result.status}); set PAGER to one, such as less`;
	}

	if (result.signal !== null) return `${which} was ended by ${result.signal}`;
	if (result.status !== 0) return `${which} ended with exit ${result.status}`;
	return null;
}
