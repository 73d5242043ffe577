import {stat} from 'node:fs/promises';
import {join, resolve} from 'node:path';
import {UsageError} from '../errors.js';
import type {DiscoveredPath, DiscoveredResources} from '../extensions/discover-resources.js';
import type {RunSettings, Settings} from '../extensions/settings-file.js';
import {MAX_RESOURCE_FOLDERS, PI_PROMPT_FOLDER, PI_SKILL_FOLDER, PROJECT_PROMPT_FOLDER, PROJECT_SKILL_FOLDERS, type ResourceFolder, type ResourceFolders} from './resource-folders.js';

export interface ResourceSources {
	/** `--skill DIR`, repeatable, against `cwd`. */
	skills: readonly string[];
	/** `--prompt-template DIR`, repeatable, against `cwd`. */
	promptTemplates: readonly string[];
	settings: RunSettings;
	/** What the extensions' `registerResourcesDiscover` handlers named. */
	discovered: DiscoveredResources;
	workspace: string;
	/** The folder relative flags resolve against (the process's cwd). */
	cwd?: string;
}

export interface CollectedResources {
	/** Undefined when nothing names a folder beyond the workspace's own: the frames then carry none, and each module uses those. */
	folders: ResourceFolders | undefined;
	warnings: string[];
}

/**
 * The skill and prompt-template folders of a run, in the order the modules
 * search them (spec/extensions.md §8: configured paths before the conventional
 * folders, `.i` before `.pi`, the project before the global settings,
 * packages last): `--skill` / `--prompt-template`, the project settings'
 * `skillDirs` / `promptDirs`, the workspace's own folders (`.claude/skills`
 * last of them), pi's settings' `skills` / `prompts`, `.pi/skills` /
 * `.pi/prompts`, the global settings', then what extensions discovered. A folder named twice counts once, where it
 * came first. A flag must name a folder that exists (a usage error
 * otherwise); a folder from settings or an extension may be missing, as a
 * build may make it later. Called at start, and again by a reload.
 */
export async function collectResources(sources: ResourceSources): Promise<CollectedResources> {
	const cwd = sources.cwd ?? process.cwd();
	const [skillFlags, promptFlags] = await Promise.all([flagFolders('--skill', sources.skills, cwd), flagFolders('--prompt-template', sources.promptTemplates, cwd)]);
	const {project, pi, global} = sources.settings;
	const own = (path: string): ResourceFolder => ({path: join(sources.workspace, path), origin: 'the workspace'});
	const piOrigin = `settings ${pi?.path ?? ''} (pi's)`;
	const skills = {
		before: [...skillFlags, ...fromSettings(project, 'skillDirs')],
		own: PROJECT_SKILL_FOLDERS.map(own),
		pi: (pi?.skillDirs ?? []).map(path => ({path, origin: piOrigin})),
		piOwn: [own(PI_SKILL_FOLDER)],
		after: [...fromSettings(global, 'skillDirs'), ...fromExtensions(sources.discovered.skillPaths)],
	};
	const prompts = {
		before: [...promptFlags, ...fromSettings(project, 'promptDirs')],
		own: [own(PROJECT_PROMPT_FOLDER)],
		pi: (pi?.promptDirs ?? []).map(path => ({path, origin: piOrigin})),
		piOwn: [own(PI_PROMPT_FOLDER)],
		after: [...fromSettings(global, 'promptDirs'), ...fromExtensions(sources.discovered.promptPaths)],
	};
	const warnings: string[] = [...(pi?.problems ?? [])];
	const folders: ResourceFolders = {};
	// A kind with nothing beyond the workspace's own folders is left to the module's defaults, which are those.
	const named = (kind: typeof skills) => kind.before.length + kind.pi.length + kind.after.length > 0;
	const merged = (kind: typeof skills) => [...kind.before, ...kind.own, ...kind.pi, ...kind.piOwn, ...kind.after];
	if (named(skills)) folders.skills = bounded(merged(skills), 'skill', warnings);
	if (named(prompts)) folders.prompts = bounded(merged(prompts), 'prompt-template', warnings);
	return {folders: folders.skills || folders.prompts ? folders : undefined, warnings};
}

async function flagFolders(flag: string, given: readonly string[], cwd: string): Promise<ResourceFolder[]> {
	return Promise.all(
		given.map(async path => {
			const absolute = resolve(cwd, path);
			const stats = await stat(absolute).catch((error: NodeJS.ErrnoException) => {
				throw new UsageError(`${flag} ${path}: ${error.code === 'ENOENT' ? `${absolute} does not exist` : `${absolute} cannot be read (${error.code ?? error.message})`}`);
			});
			if (!stats.isDirectory()) throw new UsageError(`${flag} ${path}: ${absolute} is not a folder`);
			return {path: absolute, origin: flag};
		}),
	);
}

function fromSettings(settings: Settings | undefined, key: 'skillDirs' | 'promptDirs'): ResourceFolder[] {
	return settings ? settings[key].map(path => ({path, origin: `settings ${settings.path}`})) : [];
}

function fromExtensions(paths: readonly DiscoveredPath[]): ResourceFolder[] {
	return paths.map(({path, extension}) => ({path, origin: `extension ${extension}`}));
}

/** The first of each path, at most MAX_RESOURCE_FOLDERS of them; the rest are said to be left out. */
function bounded(folders: readonly ResourceFolder[], kind: string, warnings: string[]): ResourceFolder[] {
	const seen = new Set<string>();
	const unique = folders.filter(folder => !seen.has(folder.path) && seen.add(folder.path));
	if (unique.length <= MAX_RESOURCE_FOLDERS) return unique;
	warnings.push(
		`${unique.length} ${kind} folders were named; only the first ${MAX_RESOURCE_FOLDERS} are used, from ${unique[MAX_RESOURCE_FOLDERS]!.path} (${unique[MAX_RESOURCE_FOLDERS]!.origin}) on they are left out`,
	);
	return unique.slice(0, MAX_RESOURCE_FOLDERS);
}
