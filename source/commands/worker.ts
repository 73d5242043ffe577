import {exitCodes, UsageError} from '../core/errors.js';
import {OFFICIAL_HOST} from '../core/plugins/official-host.js';
import {officialWorkerModules} from '../../workers/host/official.js';

/** The official workers, which are also the modules whose `<config_dir>/<name>.json` they read. */
export const officialWorkers: readonly string[] = Object.keys(officialWorkerModules);

/**
 * `i --runtime worker NAME [--config FILE] [module options]`: one module;
 * `i --runtime worker official`: every official module in one process
 * (bin/i.js starts that one from its own bundle; this path serves the same).
 */
export async function runCommand(args: string[]): Promise<number> {
	const [name, ...rest] = args;
	try {
		if (name === OFFICIAL_HOST) {
			const {runOfficialHost} = await import('../../workers/host/official.js');
			return await runOfficialHost(rest);
		}

		const load = name !== undefined && Object.hasOwn(officialWorkerModules, name) ? officialWorkerModules[name] : undefined;
		if (!load) {
			const names = [...officialWorkers, OFFICIAL_HOST].join(', ');
			process.stderr.write(`i: --runtime worker ${name === undefined ? 'needs a worker name' : `has no worker "${name}"`}; workers: ${names}\n`);
			return exitCodes.usage;
		}

		const [module, {serve}] = await Promise.all([load(), import('../../workers/serve/serve.js')]);
		return await serve(module.createWorker(rest));
	} catch (error) {
		if (!(error instanceof UsageError)) throw error;
		process.stderr.write(`i: ${error.message}\n`);
		return exitCodes.usage;
	}
}
