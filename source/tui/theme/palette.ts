/**
 * The chat screen's semantic colours: every colour a component or the
 * Markdown renderer draws is one of these keys, so a theme (docs/themes.md)
 * changes the look in one place. Values are colour values (colour-value.ts).
 */
export const paletteKeys = [
	'accent',
	'warning',
	'error',
	'success',
	'info',
	'running',
	'special',
	'emphasis',
	'diffAdded',
	'diffRemoved',
	'diffHunk',
	'heading',
	'link',
	'inlineCode',
	'listMarker',
	'muted',
	'syntaxKeyword',
	'syntaxBuiltIn',
	'syntaxType',
	'syntaxLiteral',
	'syntaxString',
	'syntaxRegexp',
	'syntaxComment',
	'syntaxFunction',
	'syntaxVariable',
] as const;

export type PaletteKey = (typeof paletteKeys)[number];

export type Palette = Readonly<Record<PaletteKey, string>>;

/** The look `i` has always had: the 16 basic colours, which the terminal's own scheme draws. */
export const DEFAULT_PALETTE: Palette = {
	accent: 'cyan',
	warning: 'yellow',
	error: 'red',
	success: 'green',
	info: 'gray',
	running: 'blue',
	special: 'magenta',
	emphasis: 'white',
	diffAdded: 'green',
	diffRemoved: 'red',
	diffHunk: 'cyan',
	heading: 'blueBright',
	link: 'blueBright',
	inlineCode: 'yellow',
	listMarker: 'cyan',
	muted: 'gray',
	syntaxKeyword: 'magenta',
	syntaxBuiltIn: 'cyan',
	syntaxType: 'yellow',
	syntaxLiteral: 'yellow',
	syntaxString: 'green',
	syntaxRegexp: 'red',
	syntaxComment: 'gray',
	syntaxFunction: 'blue',
	syntaxVariable: 'red',
};

/** For a light background: yellow, white and the bright blues turn darker, which a white screen can show. */
export const LIGHT_PALETTE: Palette = {
	...DEFAULT_PALETTE,
	accent: '#005f87',
	warning: '#af5f00',
	info: '#6c6c6c',
	emphasis: 'black',
	diffHunk: '#005f87',
	heading: '#005fd7',
	link: '#005fd7',
	inlineCode: '#af5f00',
	listMarker: '#005f87',
	muted: '#6c6c6c',
	syntaxBuiltIn: '#005f87',
	syntaxType: '#af5f00',
	syntaxLiteral: '#af5f00',
	syntaxComment: '#6c6c6c',
};

/** The themes that ship with `i`; a theme file may not take their names. */
export const BUILTIN_THEMES: ReadonlyMap<string, {palette: Palette; description: string}> = new Map([
	['default', {palette: DEFAULT_PALETTE, description: "the terminal's own 16 colours"}],
	['light', {palette: LIGHT_PALETTE, description: 'darker colours for a light background'}],
]);

export const DEFAULT_THEME = 'default';
