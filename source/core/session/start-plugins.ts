import {realpathSync, statSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {UsageError} from '../errors.js';
import type {PlatformDirs} from '../config/dirs.js';
import {checkedDirs} from '../config/checked-dirs.js';
import {checkModelConfig, configPath, loadModelConfig, type LoadedConfig} from '../config/load-config.js';
import type {LoadedPlugins, RequestContext, WorkerPool, WorkerSpec} from '../pool/types.js';

/** What the start needs from a head: `i`'s flags, or the options of the core's API (core/api). */
export interface StartOptions {
	/** A config file (`--config`), or the config itself; `<config_dir>/config.json` by default. */
	config?: string | Readonly<Record<string, unknown>> | undefined;
	/** The workspace (`-C`); the current folder by default. */
	cwd?: string | undefined;
	/** `--provider ID`: a catalogue provider for this run, over the config's choice. */
	provider?: string | undefined;
	/** `--model ID` (or `provider/model`): a catalogue model for this run, over the config's choice. */
	model?: string | undefined;
	/** For a process that is not `i` (the core API): finds the argv of the package's own `i`, which starts the official workers. */
	packageProgram?: (() => readonly string[]) | undefined;
}

/**
 * A config given as an object has no file: its relative paths (plugins,
 * provider) resolve against the config folder, like those of the default
 * config.json, and its errors name it by this name in that folder.
 */
export const OBJECT_CONFIG_NAME = '(config object)';

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
export async function startPlugins(options: StartOptions): Promise<StartedPlugins> {
	const dirs = checkedDirs();
	const workspace = resolveWorkspace(options.cwd);
	const selectedByFlags = options.provider !== undefined || options.model !== undefined;
	const loaded =
		typeof options.config === 'object'
			? checkModelConfig(options.config, join(dirs.config_dir, OBJECT_CONFIG_NAME), {selectedByFlags})
			: loadModelConfig(configPath(options.config, dirs.config_dir), options.config !== undefined, {selectedByFlags});
	// A config that lists plugins nearly always needs the pool: its modules are fetched while the manifests are read.
	const modules = listsPlugins(loaded) ? poolModules() : undefined;
	modules?.catch(() => {});
	const {plugins, warnings} = modules
		? await (await import('../plugins/load-plugins.js')).loadPlugins(loaded, dirs, options.packageProgram ? {packageProgram: options.packageProgram} : {})
		: {plugins: {tools: [], hooks: [], provider: null}, warnings: []};
	const pool = modules && needsPool(plugins) ? await startPool(await modules, plugins, workspace, dirs, loaded.config.io_limit_bytes) : null;
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
	return loaded.config.plugins.length > 0 || typeof loaded.config.provider === 'object';
}

function needsPool(plugins: LoadedPlugins): boolean {
	return plugins.hooks.length > 0 || plugins.tools.length > 0 || plugins.provider !== null;
}

type PoolModules = [typeof import('../pool/pool.js'), typeof import('../pool/worker-environment.js')];

/** The pool's modules; not the workspace registry, whose import (node:crypto) would hold up the workers' start. */
async function poolModules(): Promise<PoolModules> {
	return Promise.all([import('../pool/pool.js'), import('../pool/worker-environment.js')]);
}

/**
 * Makes the pool and starts the workers every turn calls, then registers
 * the workspace while they start up: the frames' context waits for its ID
 * (no frame is sent before), and a registry that cannot give one closes
 * the pool, so nothing is left running after the error.
 */
async function startPool([{createWorkerPool}, {workerEnvironment}]: PoolModules, plugins: LoadedPlugins, workspace: string, dirs: PlatformDirs, ioLimitBytes: number): Promise<WorkerPool> {
	const context = registeredContext(workspace, dirs);
	const pool = createWorkerPool({context, env: workerEnvironment(process.env, dirs), ioLimitBytes, release: plugins.release});
	for (const spec of workersEveryTurnCalls(plugins)) pool.start(spec);
	try {
		await context;
	} catch (error) {
		await pool.close();
		throw error;
	}

	return pool;
}

/** The request context, once the workspace has its ID (workspace-registry.ts). */
async function registeredContext(workspace: string, dirs: PlatformDirs): Promise<RequestContext> {
	const {workspaceId} = await import('../config/workspace-registry.js');
	return {workspace, workspace_id: await workspaceId(workspace, dirs), paths: dirs};
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

/**
 * `started`, or the signal's reason as soon as it aborts: a head that began
 * the start itself (the chat screen) ends at once on a signal instead of
 * after the start finishes (a registry lock may hold it for seconds). A
 * start that finishes after all has its workers closed.
 */
export async function unlessAborted(started: Promise<StartedPlugins>, signal: AbortSignal | undefined): Promise<StartedPlugins> {
	if (!signal) return started;
	return new Promise((resolve, reject) => {
		const onAbort = () => {
			reject(signal.reason);
			started
				.then(
					async ({pool}) => pool?.close(),
					() => {},
				)
				.catch(() => {});
		};

		if (signal.aborted) {
			onAbort();
			return;
		}

		signal.addEventListener('abort', onAbort, {once: true});
		started.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
	});
}
