import '../../source/core/zod-jitless.js';
import {UsageError} from '../../source/core/errors.js';
import {OFFICIAL_HOST} from '../../source/core/plugins/official-host.js';
import {serve, type ModuleHost, type WorkerDefinition} from '../serve/serve.js';

/** A worker module: its definition from its command-line options (a UsageError for bad ones). */
export type WorkerModule = {createWorker(args: string[]): WorkerDefinition};

/** The official worker modules, each loaded at its first use. */
export const officialWorkerModules: Record<string, () => Promise<WorkerModule>> = {
	approval: async () => import('../approval/approval.js'),
	budget: async () => import('../budget/budget.js'),
	cache: async () => import('../cache/cache.js'),
	compact: async () => import('../compact/compact.js'),
	memory: async () => import('../memory/memory.js'),
	prompts: async () => import('../prompts/prompts.js'),
	responses: async () => import('../responses/responses.js'),
	skills: async () => import('../skills/skills.js'),
	smoke: async () => import('../smoke/smoke.js'),
	// spec/platform.md §10: the smoke policy with the largest cap, for thinking and image checks; tools still refused.
	'smoke-thinking': async () => {
		const smoke = await import('../smoke/smoke.js');
		return {createWorker: smoke.createThinkingWorker};
	},
	web: async () => import('../web/web.js'),
};

/** What every turn of the default profile calls, in the order it does: loaded before the first request for them. */
const firstTurn = ['prompts', 'memory', 'skills', 'budget', 'cache'];

/**
 * `i --runtime worker official`: every official module in one resident
 * process (issue 11). Each request names its module at the top level and
 * is served by it; a module is loaded at its first request, with its
 * default config discovery (`<config_dir>/<module>.json`). A module that
 * needs options of its own (`--config FILE`) runs as `i --runtime worker
 * NAME …`, bound in bindings.json.
 */
export async function runOfficialHost(args: string[]): Promise<number> {
	if (args.length > 0) {
		throw new UsageError(`worker ${OFFICIAL_HOST} takes no options (got ${args.join(' ')}); to give a module options, bind it to \`i --runtime worker NAME …\` in bindings.json`);
	}

	return serve(officialHost());
}

/** The host's modules, each made afresh at its first request. */
export function officialHost(): ModuleHost {
	return {
		name: OFFICIAL_HOST,
		modules: Object.keys(officialWorkerModules),
		// `serve` asks only for names in `modules`.
		load: async module => (await officialWorkerModules[module]!()).createWorker([]),
		preload: firstTurn,
	};
}
