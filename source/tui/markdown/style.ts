/**
 * How a piece of rendered Markdown looks: attributes and a foreground
 * colour, turned into SGR codes here and nowhere else. With colour off
 * (NO_COLOR) the attributes stay and the colours go, so the layout is the
 * same; a link's OSC 8 target is kept apart from the look (hyperlinks.ts).
 */
export interface Style {
	readonly bold?: boolean;
	readonly italic?: boolean;
	readonly underline?: boolean;
	readonly strike?: boolean;
	readonly dim?: boolean;
	/** An SGR foreground code: 31–37, 90–97. */
	readonly color?: number;
	/** An OSC 8 target, already made safe (hyperlinks.ts). */
	readonly link?: string;
}

export const PLAIN: Style = {};

/** The palette, in the 16 basic colours every terminal has and a theme can change. */
export const colors = {
	red: 31,
	green: 32,
	yellow: 33,
	blue: 34,
	magenta: 35,
	cyan: 36,
	gray: 90,
	brightBlue: 94,
} as const;

export function merge(base: Style, extra: Style): Style {
	return {...base, ...extra};
}

export function sameStyle(a: Style, b: Style): boolean {
	return a.bold === b.bold && a.italic === b.italic && a.underline === b.underline && a.strike === b.strike && a.dim === b.dim && a.color === b.color && a.link === b.link;
}

const OSC8_CLOSE = '\u001B]8;;\u001B\\';

/** Text in a style, closed again at its end, so every row stands on its own (Ink draws rows one by one). */
export function paint(text: string, style: Style, color: boolean): string {
	const codes: number[] = [];
	if (style.bold) codes.push(1);
	if (style.dim) codes.push(2);
	if (style.italic) codes.push(3);
	if (style.underline) codes.push(4);
	if (style.strike) codes.push(9);
	if (color && style.color !== undefined) codes.push(style.color);
	const styled = codes.length === 0 ? text : `\u001B[${codes.join(';')}m${text}\u001B[0m`;
	return style.link === undefined ? styled : `\u001B]8;;${style.link}\u001B\\${styled}${OSC8_CLOSE}`;
}
