import {readConfigFile} from '../../core/fs/read-config-file.js';
import {errorMessage} from '../../core/errors.js';
import {COLOUR_VALUE_HELP, isColourValue} from './colour-value.js';
import {DEFAULT_PALETTE, paletteKeys, type Palette, type PaletteKey} from './palette.js';

/** A theme file is a few dozen lines; a bound keeps a stray big file from being read whole. i's own number. */
export const MAX_THEME_FILE_BYTES = 64 * 1024;
/** The chooser shows the description on one line. i's own number. */
export const MAX_THEME_DESCRIPTION_CHARS = 200;

export interface ThemeFile {
	palette: Palette;
	description: string | undefined;
}

const known: ReadonlySet<string> = new Set(paletteKeys);

/**
 * Reads a theme file (docs/themes.md): `{"description"?, "colors": {KEY:
 * VALUE, …}}`, the keys those of palette.ts, each missing one the default
 * theme's. Returns the palette, or a message naming the file and the key at
 * fault (bad JSON, an unknown key, a value that is no colour).
 */
export async function readThemeFile(path: string): Promise<{ok: true; theme: ThemeFile} | {ok: false; message: string}> {
	const label = `theme ${path}`;
	let text: string | undefined;
	try {
		text = (await readConfigFile(path, {label, maxBytes: MAX_THEME_FILE_BYTES, tooBig: `too big for a theme file (at most ${MAX_THEME_FILE_BYTES / 1024} KiB)`}))?.toString('utf8');
	} catch (error) {
		return {ok: false, message: errorMessage(error)};
	}

	if (text === undefined) return {ok: false, message: `${label}: the file is gone`};
	let data: unknown;
	try {
		data = JSON.parse(text);
	} catch (error) {
		return {ok: false, message: `${label}: not valid JSON (${(error as Error).message})`};
	}

	const checked = checkTheme(data);
	return typeof checked === 'string' ? {ok: false, message: `${label}: ${checked}`} : {ok: true, theme: checked};
}

/** The theme in parsed JSON, or what is wrong with it, naming the key. */
export function checkTheme(data: unknown): ThemeFile | string {
	if (!isObject(data)) return 'a theme is an object {"colors": {"accent": "cyan", …}}';
	for (const key of Object.keys(data)) {
		if (key !== 'colors' && key !== 'description') return `unknown key "${key}" (a theme has "colors" and "description")`;
	}

	const {description, colors} = data;
	if (description !== undefined && (typeof description !== 'string' || description.length > MAX_THEME_DESCRIPTION_CHARS || /[\r\n]/.test(description))) {
		return `key "description": one line of at most ${MAX_THEME_DESCRIPTION_CHARS} characters`;
	}

	if (colors === undefined) return 'missing key "colors"';
	if (!isObject(colors)) return 'key "colors": an object of colours, {"accent": "cyan", …}';
	const palette: Record<PaletteKey, string> = {...DEFAULT_PALETTE};
	for (const [key, value] of Object.entries(colors)) {
		if (!known.has(key)) return `unknown key "colors.${key}" (the colours are ${paletteKeys.join(', ')})`;
		if (typeof value !== 'string' || !isColourValue(value)) return `key "colors.${key}": ${JSON.stringify(value)} is not a colour (${COLOUR_VALUE_HELP})`;
		palette[key as PaletteKey] = value;
	}

	return {palette, description};
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
