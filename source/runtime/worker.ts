import {exitCodes, UsageError} from '../core/errors.js';

/** A worker module: serves requests on stdin until EOF and returns the exit code. */
type WorkerModule = {runWorker(args: string[]): Promise<number>};

const workers: Record<string, () => Promise<WorkerModule>> = {
	approval: async () => import('../../workers/approval.js'),
	budget: async () => import('../../workers/budget.js'),
	cache: async () => import('../../workers/cache.js'),
	compact: async () => import('../../workers/compact.js'),
	memory: async () => import('../../workers/memory.js'),
	prompts: async () => import('../../workers/prompts.js'),
	responses: async () => import('../../workers/responses.js'),
	skills: async () => import('../../workers/skills.js'),
	smoke: async () => import('../../workers/smoke.js'),
	web: async () => import('../../workers/web.js'),
};

/** The official workers, which are also the modules whose `<config_dir>/<name>.json` they read. */
export const officialWorkers: readonly string[] = Object.keys(workers);

/** `i --runtime worker NAME [--config FILE] [module options]` */
export async function runCommand(args: string[]): Promise<number> {
	const [name, ...rest] = args;
	const load = name !== undefined && Object.hasOwn(workers, name) ? workers[name] : undefined;
	if (!load) {
		const what = name === undefined ? 'needs a worker name' : `has no worker "${name}"`;
		process.stderr.write(`i: --runtime worker ${what}; official workers: ${officialWorkers.join(', ')}\n`);
		return exitCodes.usage;
	}

	try {
		return await (await load()).runWorker(rest);
	} catch (error) {
		if (!(error instanceof UsageError)) throw error;
		process.stderr.write(`i: ${error.message}\n`);
		return exitCodes.usage;
	}
}
