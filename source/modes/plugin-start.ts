import {realpathSync, statSync} from 'node:fs';
import {resolve} from 'node:path';
import type {CliOptions} from '../run-cli.js';
import {UsageError} from '../core/errors.js';
import type {PlatformDirs} from '../core/config/dirs.js';
import {checkedDirs} from '../core/config/checked-dirs.js';
import {configPath, loadModelConfig, type LoadedConfig} from '../core/config/load-config.js';
import type {LoadedPlugins, WorkerPool, WorkerSpec} from '../core/pool/types.js';

/** The first part of set-up: the config, the manifests, and the pool with the workers every turn needs already starting. */
export interface StartedPlugins {
	dirs: PlatformDirs;
	workspace: string;
	loaded: LoadedConfig;
	plugins: LoadedPlugins;
	/** For the head to show: profile modules not built yet. */
	warnings: string[];
	/** Null when no plugin needs a worker. */
	pool: WorkerPool | null;
}

/**
 * Reads the config and the manifests it lists and starts the workers every
 * turn calls (issue 11: the official host among them), so their start-up
 * overlaps the rest of set-up. It imports little: a head calls it before
 * loading its own modules, the agent loop and the tools. A problem with a
 * flag or a file is a UsageError; nothing is left running after one.
 */
export async function startPlugins(options: CliOptions): Promise<StartedPlugins> {
	const dirs = checkedDirs();
	const workspace = resolveWorkspace(options.cwd);
	const loaded = loadModelConfig(configPath(options.config, dirs.config_dir), options.config !== undefined);
	// A config that lists plugins nearly always needs the pool: its modules and the workspace's ID are fetched while the manifests are read.
	const parts = listsPlugins(loaded) ? poolParts(workspace, dirs) : undefined;
	parts?.catch(() => {});
	const {plugins, warnings} = parts ? await (await import('../core/plugins/load-plugins.js')).loadPlugins(loaded, dirs) : {plugins: {tools: [], hooks: [], provider: null}, warnings: []};
	const pool = parts && needsPool(plugins) ? (await parts).create(loaded.config.io_limit_bytes) : null;
	if (pool) for (const spec of workersEveryTurnCalls(plugins)) pool.start(spec);
	return {dirs, workspace, loaded, plugins, warnings, pool};
}

export function resolveWorkspace(cwd: string | undefined): string {
	const path = resolve(cwd ?? '.');
	let real: string;
	try {
		real = realpathSync(path);
	} catch {
		throw new UsageError(`workspace ${path} does not exist (-C)`);
	}

	if (!statSync(real).isDirectory()) throw new UsageError(`workspace ${path} is not a folder (-C)`);
	return real;
}

function listsPlugins(loaded: LoadedConfig): boolean {
	return loaded.config.plugins.length > 0 || loaded.config.provider !== undefined;
}

function needsPool(plugins: LoadedPlugins): boolean {
	return plugins.hooks.length > 0 || plugins.tools.length > 0 || plugins.provider !== null;
}

/** What makes the pool: its module, its request context (the workspace registered) and the workers' environment, ready. */
async function poolParts(workspace: string, dirs: PlatformDirs): Promise<{create(ioLimitBytes: number): WorkerPool}> {
	const [{workspaceId}, {createWorkerPool}, {workerEnvironment}] = await Promise.all([
		import('../core/config/workspace-registry.js'),
		import('../core/pool/pool.js'),
		import('../core/pool/worker-environment.js'),
	]);
	const id = await workspaceId(workspace, dirs);
	const context = {workspace, workspace_id: id, paths: dirs};
	const env = workerEnvironment(process.env, dirs);
	return {create: ioLimitBytes => createWorkerPool({context, env, ioLimitBytes})};
}

/** Events that every turn (or every start) raises: a worker with a hook for one of them is called in any session. */
const everyTurn: ReadonlySet<string> = new Set(['*', 'session_load', 'system_prompt', 'user_input', 'before_turn', 'context_budget', 'before_request', 'after_response', 'before_save', 'after_save', 'finish']);

/** The provider worker and the workers of hooks every turn raises, once each (one process per exec and cwd). */
function workersEveryTurnCalls(plugins: LoadedPlugins): WorkerSpec[] {
	const specs = new Map<string, WorkerSpec>();
	const add = (spec: WorkerSpec) => specs.set(JSON.stringify([spec.exec, spec.cwd]), spec);
	if (plugins.provider) add(plugins.provider);
	for (const hook of plugins.hooks) if (hook.events.some(event => everyTurn.has(event))) add(hook.worker);
	return [...specs.values()];
}
