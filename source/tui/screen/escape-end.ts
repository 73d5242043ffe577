const BEL = 0x07;
const ESC = 0x1b;

/**
 * Where the escape sequence starting at `start` (an ESC) ends: the index
 * after it, or -1 when the text ends inside it. CSI runs to its final byte;
 * OSC to BEL or ST; DCS, SOS, PM and APC to ST; any other escape to its
 * final byte after optional intermediates (a character set's `ESC ( B`).
 */
export function escapeEnd(text: string, start: number): number {
	const kind = text.charCodeAt(start + 1);
	if (Number.isNaN(kind)) return -1;
	if (kind === 0x5b) {
		for (let at = start + 2; at < text.length; at++) {
			const code = text.charCodeAt(at);
			if (code >= 0x40 && code <= 0x7e) return at + 1;
		}

		return -1;
	}

	if (kind === 0x5d || kind === 0x50 || kind === 0x58 || kind === 0x5e || kind === 0x5f) {
		for (let at = start + 2; at < text.length; at++) {
			const code = text.charCodeAt(at);
			if (code === BEL && kind === 0x5d) return at + 1;
			if (code === ESC) return at + 1 < text.length ? at + 2 : -1;
		}

		return -1;
	}

	let at = start + 1;
	while (at < text.length && text.charCodeAt(at) >= 0x20 && text.charCodeAt(at) <= 0x2f) at++;
	return at < text.length ? at + 1 : -1;
}
