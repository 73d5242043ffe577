import {globalSettingsPath, readSettingsJson} from '../../core/extensions/settings-file.js';
import {updateSettings} from '../../core/extensions/settings-packages.js';
import type {ResourceFolder} from '../../core/resources/resource-folders.js';
import {errorMessage} from '../../core/errors.js';
import {setActiveTheme} from './active-palette.js';
import {loadTheme} from './load-theme.js';

/**
 * The global settings' `theme` (`<config_dir>/settings.json`: colours suit
 * the person's terminal, so a project's settings do not choose them), read
 * at start and written by /theme.
 */
export const THEME_SETTING = 'theme';

/**
 * Applies the theme the settings name, if any. A missing or broken theme is
 * a message naming the settings file or the theme file and the key, and the
 * default theme stays; returns undefined when all went well.
 */
export async function applySavedTheme(configDir: string, folders: readonly ResourceFolder[]): Promise<string | undefined> {
	const path = globalSettingsPath(configDir);
	let name: unknown;
	try {
		name = (await readSettingsJson(path))?.data[THEME_SETTING];
	} catch (error) {
		return `the theme is not read: ${errorMessage(error)}`;
	}

	if (name === undefined) return undefined;
	if (typeof name !== 'string' || name === '') return `settings ${path}: key "${THEME_SETTING}": a theme's name, such as "light"; the default theme is used`;
	const loaded = await loadTheme(name, folders);
	if (!loaded.ok) return `settings ${path} names the theme "${name}": ${loaded.message}; the default theme is used`;
	setActiveTheme(loaded.name, loaded.palette);
	return undefined;
}

/** Saves the chosen theme's name in the global settings, every other key kept. Returns the file. */
export async function saveTheme(configDir: string, name: string): Promise<string> {
	const path = globalSettingsPath(configDir);
	await updateSettings(path, data => {
		if (data[THEME_SETTING] === name) return false;
		data[THEME_SETTING] = name;
		return true;
	});
	return path;
}
