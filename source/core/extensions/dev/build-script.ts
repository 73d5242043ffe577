import stripAnsi from 'strip-ansi';
import {outputTail} from '../run-npm.js';

/** A build that stops making progress ends here instead of holding the dev loop; the loaded version stays. */
export const BUILD_TIMEOUT_MS = 5 * 60_000;

/** A build failed, or could not start: the message says which, where, and ends with the tail of its output. */
export class BuildFailedError extends Error {
	override name = 'BuildFailedError';
}

/**
 * `npm run build` in the package's folder, its output captured (the chat
 * screen owns the terminal) and shown, its last lines, when it fails. npm
 * runs silent: its own lines about a failed script would push the script's
 * error out of the tail. stdin is closed, so a build that asks a question
 * fails instead of waiting.
 */
export async function runBuildScript(folder: string, signal: AbortSignal, command: 'i dev' | 'i install --build' = 'i dev'): Promise<void> {
	// Loaded here: only `i dev` and `i install --build` start builds.
	const {execa} = await import('execa');
	const result = await execa('npm', ['run', 'build', '--silent', '--no-update-notifier'], {
		cwd: folder,
		stdin: 'ignore',
		all: true,
		reject: false,
		timeout: BUILD_TIMEOUT_MS,
		cancelSignal: signal,
		windowsHide: true,
	});
	if (result.code === 'ENOENT' && result.exitCode === undefined) {
		const or = command === 'i dev' ? ', or remove the script to have i bundle the entry with esbuild' : '';
		throw new BuildFailedError(`npm was not found on PATH, and ${command} runs the package's "build" script with it; put npm on PATH${or}`);
	}

	if (!result.failed) return;
	const end = result.isCanceled
		? 'was stopped'
		: result.timedOut
			? `did not finish within ${BUILD_TIMEOUT_MS / 60_000} minutes`
			: result.exitCode === undefined
				? `could not run (${result.shortMessage})`
				: `failed (exit code ${result.exitCode})`;
	const tail = outputTail(stripAnsi(String(result.all ?? '')));
	throw new BuildFailedError(`npm run build ${end} in ${folder}${tail ? `; its output:\n${tail}` : ' and printed nothing'}`);
}
