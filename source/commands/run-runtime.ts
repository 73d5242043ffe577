import {nearestName} from '../core/nearest-name.js';
import {exitCodes} from '../core/errors.js';

/** A `--runtime` command: its arguments in, an exit code out. */
export type RuntimeCommand = (args: string[]) => Promise<number>;

const commands: Record<string, () => Promise<{runCommand: RuntimeCommand}>> = {
	'cache-report': async () => import('./cache-report.js'),
	init: async () => import('./init.js'),
	logo: async () => import('./logo.js'),
	manifest: async () => import('./manifest.js'),
	paths: async () => import('./paths.js'),
	worker: async () => import('./worker.js'),
};

/** Commands of DESIGN's contract that later work adds; named so a person learns they are coming, not that they mistyped. */
const notBuiltYet = new Set<string>([]);

/** `i --runtime COMMAND …` */
export async function runRuntime(args: string[]): Promise<number> {
	const [name, ...rest] = args;
	const load = name === undefined ? undefined : commands[name];
	if (load) return (await load()).runCommand(rest);
	const known = Object.keys(commands).join(', ');
	if (name !== undefined && notBuiltYet.has(name)) {
		process.stderr.write(`i: --runtime ${name} is not built yet; available: ${known}\n`);
	} else {
		const guess = name === undefined ? undefined : nearestName(name, Object.keys(commands));
		const got = name === undefined ? '' : ` (not "${name}"${guess === undefined ? '' : `; did you mean ${guess}?`})`;
		process.stderr.write(`i: --runtime needs a command: ${known}${got}\n`);
	}

	return exitCodes.usage;
}
