import type {EventBus} from '../extensions/event-bus.js';
import type {DiscoveredResources, ResourceDiscoverer} from '../extensions/discover-resources.js';
import type {RunSettings} from '../extensions/settings-file.js';
import {collectResources, type CollectedResources} from '../resources/collect-resources.js';
import type {ResourceFolder} from '../resources/resource-folders.js';
import {themeFolders} from '../resources/theme-folders.js';

/** The resource part of a start: `i`'s flags, or the core API's options. */
export interface ResourceOptions {
	/** `--skill DIR`, repeatable. */
	skills?: readonly string[] | undefined;
	/** `--prompt-template DIR`, repeatable. */
	promptTemplates?: readonly string[] | undefined;
}

export interface ResourceContext {
	workspace: string;
	/** `<config_dir>`: its `themes/` folder. */
	configDir: string;
	settings: RunSettings;
	/** The loaded extensions' discoverers (start-extensions.ts), in priority order. */
	discoverers: readonly ResourceDiscoverer[];
	/** Their event handlers: `ResourcesDiscover` observers hear what was found. */
	events: EventBus | null;
	/** Where a failing discoverer is reported. */
	report: (message: string) => void;
}

/** The collected skill and prompt folders, and the folders the chat screen finds themes in. */
export interface LoadedResources extends CollectedResources {
	themes: ResourceFolder[];
}

const nothing: DiscoveredResources = {skillPaths: [], promptPaths: [], themePaths: []};

/**
 * The skill, prompt-template and theme folders of a run (spec/extensions.md §5, §8): the
 * extensions are asked for theirs (`reason` `startup`, or `reload` when a
 * reload calls this again with the new generation's extensions), observers
 * of `ResourcesDiscover` are told what they named, and everything is merged
 * with the flags and the settings. The caller hands the result to the
 * worker pool, whose frames carry it to the skills and prompts modules.
 */
export async function loadResources(reason: 'startup' | 'reload', options: ResourceOptions, context: ResourceContext): Promise<LoadedResources> {
	const event = {reason, cwd: context.workspace};
	const discovered = context.discoverers.length === 0 ? nothing : await (await import('../extensions/discover-resources.js')).discoverResources(context.discoverers, event, context.report);
	const paths = (found: DiscoveredResources[keyof DiscoveredResources]) => found.map(entry => entry.path);
	context.events?.observe('ResourcesDiscover', {...event, skillPaths: paths(discovered.skillPaths), promptPaths: paths(discovered.promptPaths), themePaths: paths(discovered.themePaths)});
	const collected = await collectResources({skills: options.skills ?? [], promptTemplates: options.promptTemplates ?? [], settings: context.settings, discovered, workspace: context.workspace});
	return {...collected, themes: themeFolders(context, context.settings, discovered.themePaths)};
}
