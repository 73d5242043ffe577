import {stat} from 'node:fs/promises';
import {homedir} from 'node:os';
import {dirname, isAbsolute, join, resolve} from 'node:path';
import * as z from 'zod/mini';
import {UsageError} from '../errors.js';
import {describeIssues} from '../config/describe-issues.js';
import {readConfigFile} from '../fs/read-config-file.js';
import {MAX_PLUGIN_FILE_BYTES} from '../plugins/read-json-file.js';
import {readPiSettings, type PiSettings} from './pi-settings.js';

/**
 * A `settings.json` (project `.i/settings.json`, global
 * `<config_dir>/settings.json`; spec/extensions.md §8). Known keys are
 * checked; others belong to other features (MCP servers, themes) and are left
 * to them. Relative paths resolve against the file's own folder.
 */
export interface Settings {
	/** The file, for messages. */
	path: string;
	/** Folders of extensions: each file or package folder in them is one. */
	extensionDirs: string[];
	/** Single extensions: a file, a package folder, or an npm package name installed in the folder's npm prefix (`packagesPrefix`). */
	packages: string[];
	skillDirs: string[];
	promptDirs: string[];
	/** `"providerPackage": false` removes the provider package that ships with `i`; absent: the other file decides, else it loads. */
	providerPackage?: boolean;
	/** The permission rules as written (permissions/load-permissions.ts reads them); readSettingsFile always sets it. */
	permissions?: PermissionLists;
	/** `"sandbox"` as written, its paths resolved (sandbox/sandbox-config.ts reads it). */
	sandbox?: SandboxSettings;
}

/** `"sandbox": {"enabled", "allowWrite", "allowedDomains"}` (docs/sandbox.md). */
export interface SandboxSettings {
	enabled?: boolean;
	/** Absolute: relative entries resolve against the file's folder, `~/` against the home folder. */
	allowWrite: string[];
	allowedDomains: string[];
}

/** `"permissions": {"allow": […], "ask": […], "deny": […]}` (docs/approvals.md, "Permission rules"). */
export interface PermissionLists {
	allow: string[];
	ask: string[];
	deny: string[];
}

/** The global settings' `notifications`: how the chat screen notifies (source/tui/notify/notify-style.ts). */
export const notificationStyles = ['bell', 'osc9', 'osc777', 'off'] as const;

/** Every list a person writes by hand has a bound (spec/extensions.md §6, rule 3); 256 is i's own number. */
export const MAX_SETTINGS_ENTRIES = 256;

const ruleList = z.optional(z.array(z.string().check(z.minLength(1, 'an entry is an empty rule'))).check(z.maxLength(MAX_SETTINGS_ENTRIES, `at most ${MAX_SETTINGS_ENTRIES} entries`)));

const paths = z.optional(z.array(z.string().check(z.minLength(1, 'an entry is an empty path'))).check(z.maxLength(MAX_SETTINGS_ENTRIES, `at most ${MAX_SETTINGS_ENTRIES} entries`)));

/**
 * Where a settings file's bare package names are installed (`i install`)
 * and found: `<folder>/npm/node_modules/<name>`, npm's own prefix layout
 * (package.json, package-lock.json, node_modules). A folder of its own, so
 * npm's package.json never becomes the nearest one of other files beside
 * the settings (a `.js` file in `.i/extensions/` keeps the module type it had).
 */
export function packagesPrefix(settingsFolder: string): string {
	return join(settingsFolder, 'npm');
}

/** Where the bare package name `name` of the settings file in `settingsFolder` is installed. */
export function installedPackagePath(settingsFolder: string, name: string): string {
	return join(packagesPrefix(settingsFolder), 'node_modules', name);
}

/** The known keys; others belong to other features and are kept as they are. */
export const settingsSchema = z.looseObject({
	extensionDirs: paths,
	packages: paths,
	// Short forms, as other tools write them.
	extensions: paths,
	skillDirs: paths,
	skills: paths,
	promptDirs: paths,
	prompts: paths,
	providerPackage: z.optional(z.boolean()),
	notifications: z.optional(z.enum(notificationStyles)),
	// Strict: a misspelt list ("alow") is an error, never rules silently ignored.
	permissions: z.optional(z.strictObject({allow: ruleList, ask: ruleList, deny: ruleList})),
	sandbox: z.optional(
		z.strictObject({
			enabled: z.optional(z.boolean()),
			allowWrite: paths,
			allowedDomains: z.optional(z.array(z.string().check(z.minLength(1, 'an entry is an empty domain'))).check(z.maxLength(MAX_SETTINGS_ENTRIES, `at most ${MAX_SETTINGS_ENTRIES} entries`))),
		}),
	),
});

/** One settings file as written: its text, its JSON, and the known keys read from it. */
export interface SettingsJson {
	text: string;
	/** Every key, known or not: what a rewrite keeps. */
	data: Record<string, unknown>;
	known: z.infer<typeof settingsSchema>;
}

/** Reads and checks one settings file as written; undefined when it does not exist. A broken one is a UsageError naming the file and the field. */
export async function readSettingsJson(path: string): Promise<SettingsJson | undefined> {
	const label = `settings ${path}`;
	const bytes = await readConfigFile(path, {label, maxBytes: MAX_PLUGIN_FILE_BYTES, tooBig: 'too big for a settings file (at most 1 MiB)'});
	if (bytes === undefined) return undefined;
	const text = bytes.toString('utf8');
	let data: unknown;
	try {
		data = JSON.parse(text);
	} catch (error) {
		throw new UsageError(`${label}: not valid JSON (${(error as Error).message})`);
	}

	const parsed = settingsSchema.safeParse(data);
	if (!parsed.success) throw new UsageError(`${label}: ${describeIssues(parsed.error.issues, data)}`);
	return {text, data: data as Record<string, unknown>, known: parsed.data};
}

/** Reads one settings file; undefined when it does not exist. A broken one is a UsageError naming the file and the field. */
export async function readSettingsFile(path: string): Promise<Settings | undefined> {
	const read = await readSettingsJson(path);
	if (read === undefined) return undefined;
	const folder = dirname(path);
	const at = (entries: string[] | undefined) => (entries ?? []).map(entry => resolveEntry(folder, entry));
	const {extensionDirs, packages, extensions, skillDirs, skills, promptDirs, prompts, providerPackage, permissions, sandbox} = read.known;
	const short = await splitExtensions(folder, extensions ?? []);
	return {
		permissions: {allow: permissions?.allow ?? [], ask: permissions?.ask ?? [], deny: permissions?.deny ?? []},
		...(sandbox === undefined
			? {}
			: {
					sandbox: {
						...(sandbox.enabled === undefined ? {} : {enabled: sandbox.enabled}),
						allowWrite: (sandbox.allowWrite ?? []).map(entry => (entry === '~' || entry.startsWith('~/') ? join(homedir(), entry.slice(1)) : resolveEntry(folder, entry))),
						allowedDomains: sandbox.allowedDomains ?? [],
					},
				}),
		...(providerPackage === undefined ? {} : {providerPackage}),
		path,
		extensionDirs: [...at(extensionDirs), ...short.folders],
		// A package name stays a name only until here: it is installed in the settings folder's npm prefix.
		packages: [...(packages ?? []), ...short.single].map(entry => (isPackageName(entry) ? installedPackagePath(folder, entry) : resolveEntry(folder, entry))),
		skillDirs: [...at(skillDirs), ...at(skills)],
		promptDirs: [...at(promptDirs), ...at(prompts)],
	};
}

/**
 * The short form `extensions` (spec/extensions.md §8: short for
 * `extensionDirs`), read as what each entry is: a folder of extensions
 * (a folder without package.json, found beside the settings file) goes
 * with `extensionDirs`; a file, a package folder or an npm name is a single
 * extension, as `packages` (pi and earlier `i` wrote them there), and so is
 * an entry not found, which loading then names.
 */
async function splitExtensions(folder: string, entries: readonly string[]): Promise<{folders: string[]; single: string[]}> {
	const folders: string[] = [];
	const single: string[] = [];
	for (const entry of entries) {
		const path = resolveEntry(folder, entry);
		if (await isFolderOfExtensions(path)) folders.push(path);
		else single.push(entry);
	}

	return {folders, single};
}

async function isFolderOfExtensions(path: string): Promise<boolean> {
	const found = await stat(path).catch(() => undefined);
	if (!found?.isDirectory()) return false;
	return (await stat(join(path, 'package.json')).catch(() => undefined)) === undefined;
}

/** The settings files of a run (spec/extensions.md §8): the project's `.i/settings.json`, pi's `.pi/settings.json` and the global `<config_dir>/settings.json`, each when it exists. */
export interface RunSettings {
	project: Settings | undefined;
	/** Read for its skill and prompt folders only (pi-settings.ts); absent where a caller built the settings without it. */
	pi?: PiSettings | undefined;
	global: Settings | undefined;
}

export function globalSettingsPath(configDir: string): string {
	return join(configDir, 'settings.json');
}

export function projectSettingsPath(workspace: string): string {
	return join(workspace, '.i', 'settings.json');
}

/** With `projectOnly` (`i dev-local`) the global file is not read: the run sees the project's settings only. */
export async function readRunSettings(workspace: string, configDir: string, options: {projectOnly?: boolean} = {}): Promise<RunSettings> {
	const [project, pi, global] = await Promise.all([
		readSettingsFile(projectSettingsPath(workspace)),
		readPiSettings(workspace),
		options.projectOnly ? undefined : readSettingsFile(globalSettingsPath(configDir)),
	]);
	return {project, pi, global};
}

function resolveEntry(folder: string, entry: string): string {
	return isAbsolute(entry) ? entry : resolve(folder, entry);
}

/** `left-pad`, `@scope/name`: not a path (paths start with `.`, `/`, or a drive). */
export function isPackageName(entry: string): boolean {
	return /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(entry) && !entry.startsWith('.');
}
