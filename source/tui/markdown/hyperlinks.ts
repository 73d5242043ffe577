/**
 * OSC 8 hyperlinks: whether this terminal shows them, and a link's target
 * made safe to put inside one.
 */

/** A longer target is shown as text: VTE drops URIs over 2083 bytes, and no real link needs more. */
export const MAX_HYPERLINK_BYTES = 2048;

/** Schemes a click may open; any other target (javascript:, a custom app handler, a relative path) is shown as text, never made clickable. */
const CLICKABLE = /^(?:https?|mailto|ftp):/i;

/**
 * Whether to draw links as OSC 8 hyperlinks. `I_HYPERLINKS=1|0` decides when
 * set; otherwise terminals known to show them say yes, and a multiplexer
 * (tmux, screen) says no, since it drops what it does not pass on and the
 * URL would be lost; NO_COLOR keeps the screen free of anything but text.
 */
export function hyperlinksSupported(env: NodeJS.ProcessEnv): boolean {
	const forced = env.I_HYPERLINKS;
	if (forced === '1') return true;
	if (forced === '0') return false;
	if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
	if (env.TMUX || env.STY || env.TERM?.startsWith('screen') || env.TERM?.startsWith('tmux')) return false;
	if (env.WT_SESSION || env.KITTY_WINDOW_ID || env.TERM === 'xterm-kitty' || env.TERM === 'xterm-ghostty' || env.TERM === 'foot' || env.TERM === 'alacritty') return true;
	if (env.KONSOLE_VERSION && Number(env.KONSOLE_VERSION) >= 200_400) return true;
	// VTE (GNOME Terminal, Tilix…) since 0.50: VTE_VERSION 5000.
	if (env.VTE_VERSION && Number(env.VTE_VERSION) >= 5000) return true;
	const version = env.TERM_PROGRAM_VERSION ?? '';
	switch (env.TERM_PROGRAM) {
		case 'iTerm.app': {
			return atLeast(version, [3, 1]);
		}

		case 'WezTerm': {
			return atLeast(version, [20_200_620]);
		}

		case 'vscode': {
			return atLeast(version, [1, 72]);
		}

		case 'ghostty':
		case 'Hyper':
		case 'rio': {
			return true;
		}

		default: {
			return false;
		}
	}
}

function atLeast(version: string, wanted: number[]): boolean {
	const parts = version.split(/[.-]/).map(Number);
	for (const [index, want] of wanted.entries()) {
		const have = parts[index] ?? 0;
		if (!Number.isFinite(have)) return false;
		if (have !== want) return have > want;
	}

	return true;
}

/**
 * The target as it may stand inside `ESC ] 8 ; ; … ESC \`, or null when it
 * must not be clickable. OSC 8 allows only bytes 32–126 in a URI: anything
 * else (spaces, the U+FFFD that replaced a control character, any non-ASCII)
 * is percent-encoded as UTF-8, so no byte of the target can end the sequence
 * or start another.
 */
export function hyperlinkTarget(href: string): string | null {
	if (!CLICKABLE.test(href)) return null;
	let safe = '';
	for (const char of href) {
		const code = char.codePointAt(0)!;
		safe += code > 0x20 && code < 0x7f ? char : [...Buffer.from(char, 'utf8')].map(byte => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
	}

	return Buffer.byteLength(safe) > MAX_HYPERLINK_BYTES ? null : safe;
}
