import {readdir} from 'node:fs/promises';
import {join} from 'node:path';
import type {ResourceFolder} from '../../core/resources/resource-folders.js';
import {BUILTIN_THEMES} from './palette.js';

/** Theme files read from one folder; the rest are named in one warning. i's own number. */
export const MAX_THEMES_PER_FOLDER = 256;
/** A theme's name is its file's name without `.json`: 1–64 of letters, digits, `.`, `_`, `-`, from a letter or digit. */
export const THEME_NAME = /^[A-Za-z\d][\w.-]{0,63}$/;

export interface ThemeEntry {
	name: string;
	/** Undefined for a theme that ships with `i`. */
	path: string | undefined;
	/** Where it was found, for the chooser and messages: `the workspace`, `extension todo`, `built in`. */
	origin: string;
}

export interface FoundThemes {
	/** By name, the first found of each; the built-in themes last. */
	themes: ThemeEntry[];
	/** Files left out, each naming the file and why. */
	problems: string[];
}

/**
 * Every theme a run can use (docs/themes.md): the `.json` files of the
 * theme folders in their order (the project's `.i/themes/`, the global
 * `<config_dir>/themes/`, what extensions discovered, then installed
 * packages' `themes/`), the first of a name winning, then the built-in
 * ones. A folder that is missing or unreadable adds nothing; files are only
 * listed here, each is read when chosen (theme-file.ts).
 */
export async function findThemes(folders: readonly ResourceFolder[]): Promise<FoundThemes> {
	const listed = await Promise.all(folders.map(async folder => ({folder, names: await jsonFiles(folder.path)})));
	const themes: ThemeEntry[] = [];
	const problems: string[] = [];
	const seen = new Set<string>(BUILTIN_THEMES.keys());
	for (const {folder, names} of listed) {
		if (names.length > MAX_THEMES_PER_FOLDER) problems.push(`${folder.path} (${folder.origin}) holds ${names.length} theme files; only the first ${MAX_THEMES_PER_FOLDER} by name are used`);
		for (const file of names.slice(0, MAX_THEMES_PER_FOLDER)) {
			const name = file.slice(0, -'.json'.length);
			const path = join(folder.path, file);
			if (!THEME_NAME.test(name)) {
				problems.push(`theme ${path}: the name "${name}" is not 1–64 letters, digits, ".", "_" or "-"; the file is left out`);
			} else if (BUILTIN_THEMES.has(name)) {
				problems.push(`theme ${path}: "${name}" is a built-in theme's name; the file is left out (rename it)`);
			} else if (!seen.has(name)) {
				seen.add(name);
				themes.push({name, path, origin: folder.origin});
			}
		}
	}

	for (const name of BUILTIN_THEMES.keys()) themes.push({name, path: undefined, origin: 'built in'});
	return {themes, problems};
}

async function jsonFiles(folder: string): Promise<string[]> {
	const entries = await readdir(folder, {withFileTypes: true}).catch(() => []);
	return entries
		.filter(entry => (entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith('.json'))
		.map(entry => entry.name)
		.sort();
}
