/** Named character references common in pages; others stay as written. */
// biome-ignore format: a table laid out by kind (markup, typography, symbols, letters), many entries a line.
const named: Readonly<Record<string, string>> = {
	amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', shy: '',
	copy: '©', reg: '®', trade: '™', hellip: '…', mdash: '—', ndash: '–', minus: '−',
	lsquo: '‘', rsquo: '’', sbquo: '‚', ldquo: '“', rdquo: '”', bdquo: '„', laquo: '«', raquo: '»', lsaquo: '‹', rsaquo: '›',
	bull: '•', middot: '·', deg: '°', plusmn: '±', times: '×', divide: '÷', frac12: '½', frac14: '¼', frac34: '¾',
	euro: '€', pound: '£', yen: '¥', cent: '¢', sect: '§', para: '¶', micro: 'µ', dagger: '†', Dagger: '‡',
	larr: '←', rarr: '→', uarr: '↑', darr: '↓', harr: '↔', le: '≤', ge: '≥', ne: '≠', asymp: '≈', infin: '∞',
	ensp: ' ', emsp: ' ', thinsp: ' ', zwj: '\u200D', zwnj: '\u200C', iexcl: '¡', iquest: '¿',
	auml: 'ä', ouml: 'ö', uuml: 'ü', Auml: 'Ä', Ouml: 'Ö', Uuml: 'Ü', szlig: 'ß', eacute: 'é', egrave: 'è', ecirc: 'ê',
	aacute: 'á', agrave: 'à', acirc: 'â', iacute: 'í', oacute: 'ó', uacute: 'ú', ntilde: 'ñ', ccedil: 'ç', aring: 'å', oslash: 'ø', aelig: 'æ',
};

const reference = /&(?:#(\d{1,8})|#[xX]([0-9a-fA-F]{1,7})|([A-Za-z][A-Za-z0-9]{1,31}));?/g;

/** Decodes character references; a code point that is not a valid scalar value becomes U+FFFD. */
export function decodeEntities(text: string): string {
	if (!text.includes('&')) return text;
	return text.replace(reference, (match, decimal: string | undefined, hex: string | undefined, name: string | undefined) => {
		if (name !== undefined) return Object.hasOwn(named, name) && match.endsWith(';') ? named[name]! : match;
		const code = decimal === undefined ? Number.parseInt(hex!, 16) : Number.parseInt(decimal, 10);
		const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
		return valid ? String.fromCodePoint(code) : '\uFFFD';
	});
}
