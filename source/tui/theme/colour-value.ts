/**
 * A theme's colour value: one of the terminal's 16 named colours (as Ink
 * names them: `cyan`, `blueBright`, `gray`), `#rrggbb`, or `default` (the
 * terminal's own text colour). Ink draws the names and hex values itself;
 * the Markdown renderer turns them into SGR codes here.
 */

/** SGR foreground codes of the named colours. */
const NAMED: ReadonlyMap<string, number> = new Map([
	['black', 30],
	['red', 31],
	['green', 32],
	['yellow', 33],
	['blue', 34],
	['magenta', 35],
	['cyan', 36],
	['white', 37],
	['gray', 90],
	['grey', 90],
	['blackBright', 90],
	['redBright', 91],
	['greenBright', 92],
	['yellowBright', 93],
	['blueBright', 94],
	['magentaBright', 95],
	['cyanBright', 96],
	['whiteBright', 97],
]);

/** The terminal's own text colour: no colour code at all. */
export const NO_COLOUR = 'default';

const HEX = /^#[\da-f]{6}$/i;

export function isColourValue(value: string): boolean {
	return value === NO_COLOUR || NAMED.has(value) || HEX.test(value);
}

/** What a message says a colour value is, after naming the wrong one. */
export const COLOUR_VALUE_HELP = 'a colour is a name (black, red, green, yellow, blue, magenta, cyan, white, gray, or one of them with Bright: redBright), #rrggbb, or default';

/** The value as Ink's `color` prop: undefined for `default`. */
export function inkColour(value: string): string | undefined {
	return value === NO_COLOUR ? undefined : value;
}

/** The SGR parameters that set the value as the foreground; undefined for `default`. Hex values are 24-bit colour. */
export function sgrForeground(value: string): string | undefined {
	const named = NAMED.get(value);
	if (named !== undefined) return String(named);
	if (!HEX.test(value)) return undefined;
	const channel = (at: number) => Number.parseInt(value.slice(at, at + 2), 16);
	return `38;2;${channel(1)};${channel(3)};${channel(5)}`;
}
