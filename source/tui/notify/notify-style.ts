import type {notificationStyles} from '../../core/extensions/settings-file.js';

/**
 * How the chat screen tells a person who looked away that it needs them
 * (issue 17 item 6): the terminal bell, an OSC 9 desktop notification
 * (iTerm2, WezTerm, Ghostty, …), an OSC 777 one (`notify;title;body`: foot,
 * urxvt, …), or nothing.
 */
export type NotifyStyle = (typeof notificationStyles)[number];

/** Terminals known to show OSC 9 as a desktop notification, by TERM_PROGRAM. */
const osc9Programs: ReadonlySet<string> = new Set(['iTerm.app', 'WezTerm', 'ghostty']);

/**
 * The style a run uses: off with `I_NO_NOTIFY=1`; else the global
 * settings' `notifications`; else what the terminal is known to show. A
 * notification inside tmux or screen must be wrapped to get through, so the
 * bell is the default there (tmux turns it into its own alert).
 */
export function notifyStyle(env: NodeJS.ProcessEnv, configured: NotifyStyle | undefined): NotifyStyle {
	if (env.I_NO_NOTIFY !== undefined && env.I_NO_NOTIFY !== '' && env.I_NO_NOTIFY !== '0') return 'off';
	if (configured !== undefined) return configured;
	const term = env.TERM ?? '';
	if (env.TMUX !== undefined || term.startsWith('screen') || term.startsWith('tmux')) return 'bell';
	if (osc9Programs.has(env.TERM_PROGRAM ?? '')) return 'osc9';
	if (term.startsWith('foot') || term.startsWith('rxvt-unicode')) return 'osc777';
	return 'bell';
}

/** The bytes of one notification; '' for off. Title and body lose control characters (and `;`, OSC 777's separator, in the title). */
export function notificationBytes(style: NotifyStyle, title: string, body: string): string {
	const clean = (text: string) => text.replaceAll(/[\u0000-\u001F\u007F-\u009F]/g, ' ');
	switch (style) {
		case 'bell': {
			return '\u0007';
		}

		case 'osc9': {
			return `\u001B]9;${clean(`${title}: ${body}`)}\u0007`;
		}

		case 'osc777': {
			return `\u001B]777;notify;${clean(title).replaceAll(';', ',')};${clean(body)}\u0007`;
		}

		case 'off': {
			return '';
		}
	}
}
