import {globalSettingsPath} from '../../core/extensions/settings-file.js';
import {updateSettings} from '../../core/extensions/settings-packages.js';
import {THEME_SETTING} from './theme-setting.js';

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
