import fullStringWidth from 'string-width';
import stripAnsi from 'strip-ansi';
import {eastAsianWidth} from 'get-east-asian-width';

/**
 * Code points that are each a whole grapheme cluster on their own, never
 * join a neighbour (no combining marks, joiners, variation selectors,
 * jamo, emoji or controls) and whose width is their East Asian Width:
 * Latin, Greek, Cyrillic, common punctuation, arrows, box drawing, braille,
 * kana, CJK ideographs, Hangul syllables and fullwidth forms. A test checks
 * every one of them against string-width.
 */
const SIMPLE: ReadonlyArray<readonly [number, number]> = [
	[0xa0, 0xac],
	[0xae, 0x2ff],
	[0x370, 0x377],
	[0x37a, 0x37f],
	[0x384, 0x38a],
	[0x38c, 0x38c],
	[0x38e, 0x3a1],
	[0x3a3, 0x482],
	[0x2010, 0x2027],
	[0x2030, 0x205e],
	[0x2190, 0x21ff],
	[0x2500, 0x25ff],
	[0x2800, 0x28ff],
	[0x3000, 0x3029],
	[0x3030, 0x303f],
	[0x3041, 0x3096],
	[0x30a0, 0x30ff],
	[0x4e00, 0x9fff],
	[0xac00, 0xd7a3],
	[0xff01, 0xff60],
];

function isSimple(code: number): boolean {
	for (const [low, high] of SIMPLE) {
		if (code < low) return false;
		if (code <= high) return true;
	}

	return false;
}

/** The ranges, for the test that checks every code point in them against string-width. */
export const simpleRanges = SIMPLE;

interface Options {
	ambiguousIsNarrow?: boolean;
	countAnsiEscapeCodes?: boolean;
}

/**
 * string-width, with a fast path. string-width segments every non-ASCII
 * string into graphemes and tests each against Unicode-property regular
 * expressions; the first such call costs tens of milliseconds (ICU data,
 * regex compilation), which lands on the chat screen's first frame, and
 * every later call is slow for CJK text. Text made only of the code points
 * above is measured by adding their East Asian Widths, with the same
 * result; anything else goes to string-width itself. The bundle gives this
 * module to Ink and its helpers in place of string-width.
 */
export default function stringWidth(input: string, options: Options = {}): number {
	if (typeof input !== 'string' || input.length === 0) return 0;
	if (options.countAnsiEscapeCodes === true || options.ambiguousIsNarrow === false) return fullStringWidth(input, options);
	const text = input.includes('\u001B') || input.includes('\u009B') ? stripAnsi(input) : input;
	let width = 0;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code >= 0x20 && code <= 0x7e) {
			width++;
			continue;
		}

		if (!isSimple(code)) return fullStringWidth(text, options);
		width += eastAsianWidth(code);
	}

	return width;
}
