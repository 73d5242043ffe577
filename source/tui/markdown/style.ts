import {activeTheme} from '../theme/active-palette.js';
import {sgrForeground} from '../theme/colour-value.js';
import type {PaletteKey} from '../theme/palette.js';

/**
 * How a piece of rendered Markdown looks: attributes and a foreground
 * colour (a key of the active theme), turned into SGR codes here and nowhere else. With colour off
 * (NO_COLOR) the attributes stay and the colours go, so the layout is the
 * same; a link's OSC 8 target is kept apart from the look (hyperlinks.ts).
 */
export interface Style {
	readonly bold?: boolean;
	readonly italic?: boolean;
	readonly underline?: boolean;
	readonly strike?: boolean;
	readonly dim?: boolean;
	/** A semantic colour, drawn in the active theme's value for it. */
	readonly color?: PaletteKey;
	/** An OSC 8 target, already made safe (hyperlinks.ts). */
	readonly link?: string;
}

export const PLAIN: Style = {};

export function merge(base: Style, extra: Style): Style {
	return {...base, ...extra};
}

export function sameStyle(a: Style, b: Style): boolean {
	return a.bold === b.bold && a.italic === b.italic && a.underline === b.underline && a.strike === b.strike && a.dim === b.dim && a.color === b.color && a.link === b.link;
}

const OSC8_CLOSE = '\u001B]8;;\u001B\\';

/** Text in a style, closed again at its end, so every row stands on its own (Ink draws rows one by one). */
export function paint(text: string, style: Style, color: boolean): string {
	const codes: Array<number | string> = [];
	if (style.bold) codes.push(1);
	if (style.dim) codes.push(2);
	if (style.italic) codes.push(3);
	if (style.underline) codes.push(4);
	if (style.strike) codes.push(9);
	const foreground = color && style.color !== undefined ? sgrForeground(activeTheme().palette[style.color]) : undefined;
	if (foreground !== undefined) codes.push(foreground);
	const styled = codes.length === 0 ? text : `\u001B[${codes.join(';')}m${text}\u001B[0m`;
	return style.link === undefined ? styled : `\u001B]8;;${style.link}\u001B\\${styled}${OSC8_CLOSE}`;
}
