import type {ResourceFolder} from '../../core/resources/resource-folders.js';
import {findThemes, type ThemeEntry} from './find-themes.js';
import {BUILTIN_THEMES, type Palette} from './palette.js';
import {readThemeFile} from './theme-file.js';

export type LoadedTheme = {ok: true; name: string; palette: Palette} | {ok: false; message: string};

/** The palette of the theme `name`: a built-in one, or the first file of that name in `folders`; a missing or broken one says why. */
export async function loadTheme(name: string, folders: readonly ResourceFolder[]): Promise<LoadedTheme> {
	const builtin = BUILTIN_THEMES.get(name);
	if (builtin) return {ok: true, name, palette: builtin.palette};
	const {themes} = await findThemes(folders);
	const entry = themes.find(theme => theme.name === name);
	if (entry === undefined) return {ok: false, message: `no theme "${name}" (the themes are ${themes.map(theme => theme.name).join(', ')})`};
	return loadEntry(entry);
}

/** A listed theme's palette. */
export async function loadEntry(entry: ThemeEntry): Promise<LoadedTheme> {
	if (entry.path === undefined) return {ok: true, name: entry.name, palette: BUILTIN_THEMES.get(entry.name)!.palette};
	const read = await readThemeFile(entry.path);
	return read.ok ? {ok: true, name: entry.name, palette: read.theme.palette} : read;
}
