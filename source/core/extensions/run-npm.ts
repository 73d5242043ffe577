import {UsageError} from '../errors.js';

/** An install from a registry that stops answering ends here instead of holding `i install` forever. */
export const NPM_TIMEOUT_MS = 10 * 60_000;
/** How much of a failed npm's output an error shows: its last lines, where npm says what went wrong. */
export const NPM_OUTPUT_TAIL_LINES = 20;

/**
 * npm's flags for every run of `i install` / `i uninstall`, whatever the
 * person's npm config says: the given prefix only (never a global install
 * an outer `npm exec` asked for through `npm_config_global`); no package
 * scripts (an extension is built JavaScript, and installing must not run
 * code the host would not load without trust); a folder is linked, not
 * copied (edits show at the next start); no audit, funding or update
 * messages, which would also reach the network.
 */
const commonFlags = ['--no-global', '--ignore-scripts', '--install-links=false', '--no-audit', '--no-fund', '--no-update-notifier', '--loglevel=warn'];

/** npm is not on PATH: a configuration problem the person fixes (exit 2). */
export class NpmMissingError extends UsageError {
	override name = 'NpmMissingError';
}

/** npm ran and failed (a registry error, a broken tarball): the message ends with the tail of its output. */
export class NpmFailedError extends Error {
	override name = 'NpmFailedError';
}

export interface NpmRun {
	/** What npm printed on stderr (warnings), for the caller to pass on. */
	warnings: string;
}

/** `npm install SPEC` into `prefix`, or without a spec: the prefix made to match its package.json and lock file again. */
export async function npmInstall(prefix: string, spec?: string): Promise<NpmRun> {
	return runNpm(['install', ...(spec === undefined ? [] : [spec])], prefix, spec === undefined ? `npm install in ${prefix}` : `npm install ${spec}`);
}

export async function npmUninstall(prefix: string, name: string): Promise<NpmRun> {
	return runNpm(['uninstall', name], prefix, `npm uninstall ${name}`);
}

async function runNpm(args: string[], prefix: string, what: string): Promise<NpmRun> {
	// Loaded here: only `i install` and `i uninstall` start npm.
	const {execa} = await import('execa');
	const result = await execa('npm', [...args, '--prefix', prefix, ...commonFlags], {
		cwd: prefix,
		stdin: 'ignore',
		all: true,
		reject: false,
		timeout: NPM_TIMEOUT_MS,
		windowsHide: true,
	});
	if (result.code === 'ENOENT' && result.exitCode === undefined) {
		throw new NpmMissingError(`npm was not found on PATH, and i installs extension packages with it; install Node.js with npm (or put npm on PATH) and try again`);
	}

	if (result.failed) {
		const end = result.timedOut ? `did not finish within ${NPM_TIMEOUT_MS / 60_000} minutes` : result.exitCode === undefined ? `could not run (${result.shortMessage})` : `failed (exit code ${result.exitCode})`;
		const tail = outputTail(String(result.all ?? ''));
		throw new NpmFailedError(`${what} ${end} in ${prefix}${tail ? `; npm said:\n${tail}` : ''}`);
	}

	return {warnings: String(result.stderr ?? '')};
}

/** The last lines of npm's output, indented, blank lines dropped. */
export function outputTail(output: string): string {
	const lines = output.split(/\r?\n/).filter(line => line.trim() !== '');
	const shown = lines.slice(-NPM_OUTPUT_TAIL_LINES).map(line => `  ${line}`);
	return lines.length > NPM_OUTPUT_TAIL_LINES ? [`  … (${lines.length - NPM_OUTPUT_TAIL_LINES} earlier lines)`, ...shown].join('\n') : shown.join('\n');
}
