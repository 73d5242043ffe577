import {inkColour} from './colour-value.js';
import {DEFAULT_PALETTE, DEFAULT_THEME, type Palette, type PaletteKey} from './palette.js';

/**
 * The theme the chat screen draws with now: one per process, set at start
 * from the settings and by /theme, read by every component at render time.
 * NO_COLOR needs nothing here: Ink and the Markdown renderer drop every
 * colour then, whatever the palette says.
 */
let active: {name: string; palette: Palette} = {name: DEFAULT_THEME, palette: DEFAULT_PALETTE};

export function activeTheme(): {name: string; palette: Palette} {
	return active;
}

export function setActiveTheme(name: string, palette: Palette): void {
	active = {name, palette};
}

/** A semantic colour of the active theme, as Ink's `color` prop. */
export function colour(key: PaletteKey): string | undefined {
	return inkColour(active.palette[key]);
}

/** `colour`, for a key that may be absent (a diff's context line). */
export function colourOf(key: PaletteKey | undefined): string | undefined {
	return key === undefined ? undefined : colour(key);
}
