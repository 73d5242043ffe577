import type {LifecycleEvent} from '../lifecycle/event-names.js';
import type {Bindings} from './bindings.js';
import {moduleHooks, moduleNames, officialModules, type ModuleName} from './modules.js';
import {officialHostArgv} from './official-host.js';
import {profileModules, type ProfileName} from './profiles.js';
import type {WorkerBinding} from './resolve-worker.js';

/** A manifest as JSON, the form `i --runtime manifest` prints and manifest files hold. */
type Entry = WorkerBinding & {module: ModuleName; prefix_reuse?: true};

export interface GeneratedManifest {
	tools: Array<{name: string; description: string; parameters: Record<string, unknown>} & Entry>;
	hooks: Array<{events: LifecycleEvent[]} & Entry>;
	provider?: WorkerBinding;
}

export interface GenerateOptions {
	profile: ProfileName;
	disabled?: readonly ModuleName[];
	/** From bindings.json: a bound module's entries all run the bound worker, built or not. */
	bindings?: Bindings;
	/** The argv that starts this program (`programArgv()`). */
	program: readonly string[];
}

/**
 * The manifest of a profile (spec/platform.md §1). Every official entry runs the one
 * official host and names its module (sent with each request, so the host
 * knows which module serves it). Official entries carry no `cwd`, so
 * they run in the folder of the manifest that holds them. A module that is
 * not built and not bound is left out with a warning the caller prints:
 * a profile never silently runs without part of itself.
 */
export function generateManifest(options: GenerateOptions): {manifest: GeneratedManifest; warnings: string[]} {
	const bindings = options.bindings ?? {};
	const selected = profileModules(options.profile, options.disabled);
	const bound = (module: ModuleName): boolean => bindings[module] !== undefined;
	const included = (module: ModuleName): boolean => selected.includes(module) && (officialModules[module].built || bound(module));
	// Official modules share one host process, which reads prefix-reuse frames; a bound module leaves
	// the host for its own worker, which gets plain spec/platform.md §2 frames unless its own manifest says otherwise.
	const host = officialHostArgv(options.program);
	const worker = (module: ModuleName): WorkerBinding & {prefix_reuse?: true} => bindings[module] ?? {exec: [...host], prefix_reuse: true};

	const warnings: string[] = [];
	const missing = selected.filter(module => !included(module));
	if (missing.length > 0) {
		const one = missing.length === 1;
		const names = missing.map(module => `"${module}"`).join(', ');
		warnings.push(`module${one ? '' : 's'} ${names} ${one ? 'is' : 'are'} not built yet; the ${options.profile} profile runs without ${one ? 'it' : 'them'}`);
	}

	for (const module of selected.filter(module => bound(module) && officialModules[module].tools === null)) {
		warnings.push(`module "${module}" is not built yet, so its tools are not defined; its binding in bindings.json registers only its hooks`);
	}

	const manifest: GeneratedManifest = {
		tools: moduleNames.filter(included).flatMap(module => (officialModules[module].tools ?? []).map(tool => ({...tool, parameters: structuredClone(tool.parameters), ...worker(module), module}))),
		hooks: moduleHooks.filter(hook => included(hook.module)).map(hook => ({events: [...hook.events], ...worker(hook.module), module: hook.module})),
	};
	if (bindings.provider) manifest.provider = bindings.provider;
	return {manifest, warnings};
}
