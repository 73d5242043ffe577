import {homedir} from 'node:os';
import {dirname, isAbsolute, join, resolve} from 'node:path';
import {errorMessage} from '../errors.js';
import {readConfigFile} from '../fs/read-config-file.js';
import {MAX_PLUGIN_FILE_BYTES} from '../plugins/read-json-file.js';
import {PI_FOLDER} from '../resources/resource-folders.js';

/**
 * pi's project settings, `.pi/settings.json`, read after `.i/`'s
 * (spec/extensions.md §8). Only `skills` and `prompts` mean there what they
 * mean in `i` (folders, relative to `.pi/`); every other key (pi's
 * extensions and packages are code for pi's own API, its model, theme and
 * compaction settings name pi's things) is left alone rather than misread.
 * The file is another program's, so a broken one is a warning, never a
 * failed start.
 */
export interface PiSettings {
	/** The file, for messages. */
	path: string;
	/** Absolute folders, in the file's order. */
	skillDirs: string[];
	promptDirs: string[];
	/** Why the file, or a field of it, was not read: a warning each. */
	problems: string[];
}

/** Entries of one list: the bound of `i`'s own settings (settings-file.ts MAX_SETTINGS_ENTRIES, spec/extensions.md §6 rule 3), kept here so the two modules do not import each other. */
export const MAX_PI_SETTINGS_ENTRIES = 256;

export function piSettingsPath(workspace: string): string {
	return join(workspace, PI_FOLDER, 'settings.json');
}

/** The file's folders; undefined when there is no file. */
export async function readPiSettings(workspace: string): Promise<PiSettings | undefined> {
	const path = piSettingsPath(workspace);
	const label = `pi's settings ${path}`;
	let data: unknown;
	try {
		const bytes = await readConfigFile(path, {label, maxBytes: MAX_PLUGIN_FILE_BYTES, tooBig: 'too big for a settings file (at most 1 MiB)'});
		if (bytes === undefined) return undefined;
		data = JSON.parse(bytes.toString('utf8'));
	} catch (error) {
		return {path, skillDirs: [], promptDirs: [], problems: [`${label} was not read: ${errorMessage(error)}`]};
	}

	if (typeof data !== 'object' || data === null || Array.isArray(data)) return {path, skillDirs: [], promptDirs: [], problems: [`${label} was not read: it is not a JSON object`]};
	const problems: string[] = [];
	const folder = dirname(path);
	const fields = data as Record<string, unknown>;
	return {path, skillDirs: folders(fields.skills, 'skills'), promptDirs: folders(fields.prompts, 'prompts'), problems};

	function folders(value: unknown, key: string): string[] {
		if (value === undefined) return [];
		if (!Array.isArray(value) || !value.every(entry => typeof entry === 'string')) {
			problems.push(`${label}: "${key}" is not a list of paths, so it is not read`);
			return [];
		}

		if (value.length > MAX_PI_SETTINGS_ENTRIES) {
			problems.push(`${label}: "${key}" has ${value.length} entries, more than ${MAX_PI_SETTINGS_ENTRIES}, so it is not read`);
			return [];
		}

		return value.filter(isPlainFolder).map(entry => (entry === '~' || entry.startsWith('~/') ? join(homedir(), entry.slice(1)) : isAbsolute(entry) ? entry : resolve(folder, entry)));
	}
}

/**
 * An entry `i` reads as pi does: a folder's path. pi's glob patterns, its
 * `!`, `+` and `-` filters and its single `.md` skill or prompt files have
 * no counterpart in `i`'s folders, so they are left out.
 */
export function isPlainFolder(entry: string): boolean {
	return entry.trim() !== '' && !/^[!+-]/.test(entry) && !/[*?[\]{}]/.test(entry) && !/\.md$/i.test(entry);
}
