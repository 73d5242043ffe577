import {readdir, stat} from 'node:fs/promises';
import {delimiter, join, resolve} from 'node:path';
import {readRunSettings, type RunSettings} from './settings-file.js';

/** Where one extension candidate came from (the order of spec/extensions.md §8, first found wins for a name). */
export type ExtensionOrigin = 'flag' | 'flag-dir' | 'env' | 'project-settings' | 'project-dir' | 'global-settings' | 'bundled';

export interface ExtensionCandidate {
	/** A file or a package folder, absolute. */
	path: string;
	origin: ExtensionOrigin;
	/** Code from the project: loaded only in a trusted workspace. */
	project: boolean;
	/** How messages name where it was listed: `--extension`, `settings /w/.i/settings.json`. */
	listedIn: string;
	/** The provider package at the folder it ships in with `i` (not a copy a test names): compiled-providers.ts may stand in for its files. */
	shipped?: boolean;
}

export interface SourceOptions {
	/** `--extension PATH`, repeatable, against the current folder. */
	extensions?: readonly string[];
	/** `--extensions-dir DIR`, repeatable. */
	extensionDirs?: readonly string[];
	/** The canonical workspace. */
	workspace: string;
	configDir: string;
	env?: NodeJS.ProcessEnv;
	/** The folder relative flags resolve against (the process's cwd). */
	cwd?: string;
	/** The settings files, when the caller has read them already. */
	settings?: RunSettings;
	/** The provider package inside `i` (bundled-providers.ts); tests name a copy of their own. Undefined: look for it. */
	bundled?: string | null;
	/**
	 * `i dev-local`: only the `extensions` paths load (no folders, no
	 * I_EXTENSIONS_DIR, no settings' or `.i/extensions/` entries), and of the
	 * settings only the project's file counts, for its skills and prompts.
	 */
	localOnly?: boolean;
}

export interface Sources {
	candidates: ExtensionCandidate[];
	/** The settings files read (skill and prompt folders come from them too). */
	settings: RunSettings;
	/** Folders that exist but could not be listed: reported, and the rest still load. */
	problems: string[];
}

/** How messages name where the provider package was listed. */
export const BUNDLED_LISTED_IN = 'i itself (the provider package; "providerPackage": false in settings.json removes it)';

/** Files of a folder that are extensions; others (a README, a `.d.ts`) are not. */
const extensionFile = /\.(?:m?js|cjs)$/;

/**
 * Every extension candidate, in load order: `--extension`, `--extensions-dir`,
 * `I_EXTENSIONS_DIR`, project settings (`extensionDirs`, then `packages`),
 * project `.i/extensions/`, global settings, the provider package that
 * ships with `i` (with `localOnly`, only the first). Folders list their entries by
 * name; hidden entries (`.dev`, where `i dev` keeps its builds) are skipped.
 * A listed folder that does not exist is skipped: settings may name one
 * that a build makes later.
 */
export async function findExtensionSources(options: SourceOptions): Promise<Sources> {
	const cwd = options.cwd ?? process.cwd();
	const env = options.env ?? process.env;
	const candidates: ExtensionCandidate[] = [];
	const problems: string[] = [];
	const folderEntries = async (dir: string) => listFolder(dir, problems);
	const add = (path: string, origin: ExtensionOrigin, listedIn: string, shipped = false) => {
		candidates.push({path, origin, project: origin === 'project-settings' || origin === 'project-dir', listedIn, ...(shipped ? {shipped} : {})});
	};

	for (const path of options.extensions ?? []) add(resolve(cwd, path), 'flag', '--extension');
	if (options.localOnly) {
		const settings = options.settings ?? (await readRunSettings(options.workspace, options.configDir, {projectOnly: true}));
		return {candidates, settings: {project: settings.project, pi: settings.pi, global: undefined}, problems};
	}

	for (const dir of options.extensionDirs ?? []) for (const path of await folderEntries(resolve(cwd, dir))) add(path, 'flag-dir', `--extensions-dir ${dir}`);
	const envDirs = (env.I_EXTENSIONS_DIR ?? '').split(delimiter).filter(Boolean);
	for (const dir of envDirs) for (const path of await folderEntries(resolve(cwd, dir))) add(path, 'env', 'I_EXTENSIONS_DIR');

	const settings = options.settings ?? (await readRunSettings(options.workspace, options.configDir));
	const {project, global} = settings;
	if (project) {
		const listedIn = `settings ${project.path}`;
		for (const dir of project.extensionDirs) for (const path of await folderEntries(dir)) add(path, 'project-settings', listedIn);
		for (const path of project.packages) add(path, 'project-settings', listedIn);
	}

	const projectDir = join(options.workspace, '.i', 'extensions');
	for (const path of await folderEntries(projectDir)) add(path, 'project-dir', projectDir);

	if (global) {
		const listedIn = `settings ${global.path}`;
		for (const dir of global.extensionDirs) for (const path of await folderEntries(dir)) add(path, 'global-settings', listedIn);
		for (const path of global.packages) add(path, 'global-settings', listedIn);
	}

	// Last: any source the person names wins a name clash with it. A settings file's "providerPackage": false removes it (the project's word over the global's).
	const wanted = project?.providerPackage ?? global?.providerPackage ?? true;
	const bundled = wanted ? (options.bundled === undefined ? await (await import('./bundled-providers.js')).bundledProviderPackage() : (options.bundled ?? undefined)) : undefined;
	if (bundled !== undefined) add(bundled, 'bundled', BUNDLED_LISTED_IN, options.bundled === undefined);
	return {candidates, settings, problems};
}

/** The extensions in a folder: its script files and its sub-folders (package folders), by name. */
async function listFolder(dir: string, problems: string[]): Promise<string[]> {
	let names: string[];
	try {
		names = await readdir(dir);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code !== 'ENOENT' && code !== 'ENOTDIR') problems.push(`cannot list the extensions folder ${dir} (${code ?? (error as Error).message})`);
		return [];
	}

	const entries: string[] = [];
	for (const name of names.sort()) {
		if (name.startsWith('.') || name === 'node_modules') continue;
		const path = join(dir, name);
		const stats = await stat(path).catch(() => undefined);
		if (stats?.isDirectory() || (stats?.isFile() && extensionFile.test(name))) entries.push(path);
	}

	return entries;
}
