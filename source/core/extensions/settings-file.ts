import {dirname, isAbsolute, resolve} from 'node:path';
import * as z from 'zod/mini';
import {UsageError} from '../errors.js';
import {describeIssues} from '../config/describe-issues.js';
import {readJsonFile} from '../plugins/read-json-file.js';

/**
 * A `settings.json` (project `.i/settings.json`, global
 * `<config_dir>/settings.json`; ../shared/EXTENSIONS.md "Where extensions
 * come from"). Known keys are checked; others belong to other features
 * (MCP servers, themes) and are left to them. Relative paths resolve
 * against the file's own folder.
 */
export interface Settings {
	/** The file, for messages. */
	path: string;
	/** Folders of extensions: each file or package folder in them is one. */
	extensionDirs: string[];
	/** Single extensions: a file, a package folder, or an npm package name installed under `<folder>/node_modules`. */
	packages: string[];
	skillDirs: string[];
	promptDirs: string[];
}

/** Seed 000 §11's bound for every list a person writes by hand. */
export const MAX_SETTINGS_ENTRIES = 256;

const paths = z.optional(z.array(z.string().check(z.minLength(1, 'an entry is an empty path'))).check(z.maxLength(MAX_SETTINGS_ENTRIES, `at most ${MAX_SETTINGS_ENTRIES} entries`)));

const schema = z.looseObject({
	extensionDirs: paths,
	packages: paths,
	// Short forms, as other tools write them.
	extensions: paths,
	skillDirs: paths,
	skills: paths,
	promptDirs: paths,
	prompts: paths,
});

/** Reads one settings file; undefined when it does not exist. A broken one is a UsageError naming the file and the field. */
export async function readSettingsFile(path: string): Promise<Settings | undefined> {
	const label = `settings ${path}`;
	const data = await readJsonFile(path, label);
	if (data === undefined) return undefined;
	const parsed = schema.safeParse(data);
	if (!parsed.success) throw new UsageError(`${label}: ${describeIssues(parsed.error.issues, data)}`);
	const folder = dirname(path);
	const at = (entries: string[] | undefined) => (entries ?? []).map(entry => resolveEntry(folder, entry));
	const {extensionDirs, packages, extensions, skillDirs, skills, promptDirs, prompts} = parsed.data;
	return {
		path,
		extensionDirs: at(extensionDirs),
		// A package name stays a name only until here: it is installed under the settings folder.
		packages: [...(packages ?? []), ...(extensions ?? [])].map(entry => (isPackageName(entry) ? resolve(folder, 'node_modules', entry) : resolveEntry(folder, entry))),
		skillDirs: [...at(skillDirs), ...at(skills)],
		promptDirs: [...at(promptDirs), ...at(prompts)],
	};
}

function resolveEntry(folder: string, entry: string): string {
	return isAbsolute(entry) ? entry : resolve(folder, entry);
}

/** `left-pad`, `@scope/name`: not a path (paths start with `.`, `/`, or a drive). */
export function isPackageName(entry: string): boolean {
	return /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(entry) && !entry.startsWith('.');
}
