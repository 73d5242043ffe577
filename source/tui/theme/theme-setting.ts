import {globalSettingsPath, readSettingsJson} from '../../core/extensions/settings-file.js';
import type {ResourceFolder} from '../../core/resources/resource-folders.js';
import {errorMessage} from '../../core/errors.js';
import {setActiveTheme} from './active-palette.js';
import {loadTheme} from './load-theme.js';

/**
 * The global settings' `theme` (`<config_dir>/settings.json`: colours suit
 * the person's terminal, so a project's settings do not choose them), read
 * at start (written by save-theme.ts, apart, so the start loads no writer).
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
