import {dirname, resolve} from 'node:path';
import type {PlatformDirs} from '../config/dirs.js';
import type {LoadedConfig} from '../config/load-config.js';
import {UsageError} from '../errors.js';
import type {LoadedPlugins} from '../pool/types.js';
import {programArgv} from './program.js';
import {BUILTIN_FILE, isBuiltinDescriptor, resolveBuiltin} from './builtin-descriptor.js';
import {checkGeneratedManifest, parseManifest} from './manifest-file.js';
import {readJsonFile} from './read-json-file.js';
import {sandboxWorkers} from './sandbox-workers.js';
import {resolveWorker} from './resolve-worker.js';
import {sharedResolution} from './shared-resolution.js';

export interface LoadPluginsOptions {
	/** The argv that starts this program, for builtin descriptors; `programArgv()` unless a test names another. */
	program?: readonly string[];
	/**
	 * For a process that is not `i` (a script on the core API), whose
	 * running script is its own: finds the package's `i`, asked only when a
	 * builtin descriptor needs it.
	 */
	packageProgram?: () => readonly string[];
}

/**
 * Loads the manifests the API config's `plugins` lists, in order (relative
 * paths against the config file's folder): tools and hooks concatenate in
 * that order, tool names are unique across all of them. The provider is the
 * API config's own `provider` when it has one (spec/platform.md §1: the explicit binding
 * wins), else the one of the last manifest that declares one. `warnings`
 * name profile modules that are not built yet; the caller prints them.
 */
export async function loadPlugins(loaded: LoadedConfig, dirs: PlatformDirs, options: LoadPluginsOptions = {}): Promise<{plugins: LoadedPlugins; warnings: string[]}> {
	const configFolder = dirname(loaded.path);
	const plugins: LoadedPlugins = {tools: [], hooks: [], provider: null};
	const warnings: string[] = [];
	const declaredTools = new Map<string, string>();
	const resolveEntry = sharedResolution();
	const add = (part: LoadedPlugins) => {
		plugins.tools.push(...part.tools);
		plugins.hooks.push(...part.hooks);
		plugins.provider = part.provider ?? plugins.provider;
	};

	for (const [index, entry] of loaded.config.plugins.entries()) {
		const file = resolve(configFolder, entry);
		const label = `manifest ${file}`;
		const json = await readJsonFile(file, label);
		if (json === undefined) {
			const hint = entry.endsWith(BUILTIN_FILE) ? '; `i --runtime init` creates builtin.json in the config folder' : '';
			throw new UsageError(`config ${loaded.path}: "plugins[${index}]": ${label} does not exist${hint}`);
		}

		const baseDir = dirname(file);
		if (isBuiltinDescriptor(json)) {
			const program = options.program ?? options.packageProgram?.() ?? programArgv();
			const builtin = await resolveBuiltin(json, file, dirs.config_dir, program);
			warnings.push(...builtin.warnings);
			add(await checkGeneratedManifest(builtin.manifest, {label: builtin.label, file, baseDir, declaredTools, checkSchemas: false, resolve: resolveEntry, owner: builtin.owner}));
			add(await parseManifest({tools: builtin.tools}, {label: `builtin descriptor ${file}`, file, baseDir, declaredTools, checkSchemas: true, resolve: resolveEntry}));
		} else {
			add(await parseManifest(json, {label, file, baseDir, declaredTools, checkSchemas: true, resolve: resolveEntry}));
		}
	}

	const explicit = loaded.config.provider;
	if (typeof explicit === 'object') plugins.provider = resolveWorker(explicit, configFolder, `config ${loaded.path}: "provider"`);
	checkPrefixReuse(plugins);
	plugins.release = await sandboxWorkers(plugins, dirs.config_dir);
	return {plugins, warnings};
}

/**
 * One (exec, cwd) is one resident process (spec/platform.md §2), so its entries must
 * agree on whether it reads prefix-reuse frames: a worker cannot speak both.
 */
function checkPrefixReuse(plugins: LoadedPlugins): void {
	const seen = new Map<string, {reuse: boolean; where: string}>();
	const entries = [
		...plugins.tools.map(tool => ({worker: tool.worker, where: `tool "${tool.name}" of ${tool.manifest}`})),
		...plugins.hooks.map(hook => ({worker: hook.worker, where: `the ${hook.events.join(', ')} hook${hook.module ? ` of module "${hook.module}"` : ''} in ${hook.manifest}`})),
	];
	for (const {worker, where} of entries) {
		const key = JSON.stringify([worker.exec, worker.cwd]);
		const reuse = worker.prefixReuse === true;
		const earlier = seen.get(key);
		if (earlier === undefined) {
			seen.set(key, {reuse, where});
		} else if (earlier.reuse !== reuse) {
			const [on, off] = reuse ? [where, earlier.where] : [earlier.where, where];
			throw new UsageError(
				`${on} sets "prefix_reuse": true but ${off} does not, and both run worker ${JSON.stringify(worker.exec)} in ${worker.cwd}; one worker process reads one kind of frame, so every entry for it must agree`,
			);
		}
	}
}
