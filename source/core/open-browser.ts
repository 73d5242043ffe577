import {spawn} from 'node:child_process';

/**
 * Gives the URL to `$BROWSER` (the first of its `:`-separated commands; `%s`
 * stands for the URL, else it is the last argument), through the shell,
 * the URL passed as a positional parameter so nothing in it is run.
 */
export function openBrowser(url: string, environment: NodeJS.ProcessEnv, say: (line: string) => void): void {
	const command = environment.BROWSER?.split(':')[0]?.trim();
	if (!command) return;
	const line = command.includes('%s') ? command.replaceAll('%s', '"$1"') : `${command} "$1"`;
	try {
		const child = spawn('/bin/sh', ['-c', line, 'sh', url], {stdio: 'ignore', detached: true, env: environment});
		child.once('error', error => say(`$BROWSER (${command}) could not be run: ${error.message}; open the address yourself`));
		child.unref();
	} catch (error) {
		say(`$BROWSER (${command}) could not be run: ${(error as Error).message}; open the address yourself`);
	}
}
