import {hyperlinksSupported} from './hyperlinks.js';
import type {MarkdownOptions} from './render-markdown.js';

/**
 * How the chat screen draws answers, from the environment: null for the
 * text as it came (`I_MARKDOWN=0`); else colours unless NO_COLOR (any
 * non-empty value, no-color.org), and OSC 8 links where the terminal shows
 * them (hyperlinks.ts, `I_HYPERLINKS=0|1`).
 */
export function markdownOptions(env: NodeJS.ProcessEnv): MarkdownOptions | null {
	if (env.I_MARKDOWN === '0') return null;
	return {color: !env.NO_COLOR, hyperlinks: hyperlinksSupported(env)};
}
