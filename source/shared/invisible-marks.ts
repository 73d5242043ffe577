/**
 * Characters that draw nothing or reorder what is drawn, so the text on
 * screen is not the text that runs: every Unicode format character (Cf:
 * the bidirectional embeddings, overrides and isolates U+202A–202E and
 * U+2066–2069, the marks U+200E, U+200F and U+061C, the zero-width
 * U+200B–200D, U+2060, the byte-order mark U+FEFF, the soft hyphen, the tag
 * characters U+E0000–E007F…), the line and paragraph separators U+2028 and
 * U+2029, the Hangul fillers, and the variation selectors U+E0100–E01EF
 * (a known way to hide bytes after a visible character). The emoji
 * presentation selectors U+FE00–FE0F stay: they only pick a glyph.
 */
const INVISIBLE = /\p{Cf}|[\u2028\u2029\u115F\u1160\u3164\uFFA0]|[\u{E0100}-\u{E01EF}]/gu;

/**
 * A zero-width joiner between two pictographs (an optional skin tone or
 * emoji selector after the first) joins an emoji sequence such as 👨‍👩‍👧 or
 * 🏳️‍🌈: it can neither reorder nor hide a character, only merge two
 * pictographs into one glyph, so it is left alone; anywhere else it is marked.
 */
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic}[\u{1F3FB}-\u{1F3FF}\uFE0F]?)\u200D(?=\p{Extended_Pictographic})/uy;

/** Hex digits a mark shows at least: `U+200F`, not `U+200F` shortened to `U+20F`. */
const MIN_HEX_DIGITS = 4;

/** `⟨U+202E⟩`: the visible stand-in for one invisible character. */
export function invisibleMark(character: string): string {
	const hex = (character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(MIN_HEX_DIGITS, '0');
	return `⟨U+${hex}⟩`;
}

/**
 * Text that will run or be written (a command, arguments, a diff, an
 * approval's title) with each invisible or reordering character shown as a
 * mark such as `⟨U+202E⟩`, so a bidi-aware terminal draws it in the order it
 * runs (docs/approvals.md). Right-to-left letters themselves stay as they are.
 */
export function markInvisible(text: string): string {
	return text.replaceAll(INVISIBLE, (character, offset: number, whole: string) => {
		return character === '\u200D' && joinsEmoji(whole, offset) ? character : invisibleMark(character);
	});
}

function joinsEmoji(text: string, offset: number): boolean {
	// Sticky at the joiner: the lookbehind still sees the pictograph before it.
	EMOJI_JOINER.lastIndex = offset;
	return EMOJI_JOINER.test(text);
}
