import type {Token, Tokens} from 'marked';
import {hyperlinkTarget} from './hyperlinks.js';
import {merge, type Style} from './style.js';
import type {Fragment} from './wrap.js';

export interface InlineOptions {
	/** Links as OSC 8 hyperlinks (the URL then shows on hover, not in the text). */
	hyperlinks: boolean;
}

const LINK: Style = {underline: true, color: 'link'};
const URL_STYLE: Style = {dim: true};

/**
 * Inline tokens as styled fragments, wrapped to the screen later; a line
 * break (`br`: the lexer keeps the answer's line breaks) stays one.
 */
export function inlineFragments(tokens: readonly Token[] | undefined, style: Style, options: InlineOptions): Fragment[] {
	const out: Fragment[] = [];
	for (const token of tokens ?? []) addInline(token, style, options, out);
	return out;
}

function addInline(token: Token, style: Style, options: InlineOptions, out: Fragment[]): void {
	switch (token.type) {
		case 'strong': {
			out.push(...inlineFragments((token as Tokens.Strong).tokens, merge(style, {bold: true}), options));
			return;
		}

		case 'em': {
			out.push(...inlineFragments((token as Tokens.Em).tokens, merge(style, {italic: true}), options));
			return;
		}

		case 'del': {
			out.push(...inlineFragments((token as Tokens.Del).tokens, merge(style, {strike: true}), options));
			return;
		}

		case 'codespan': {
			out.push({text: soft((token as Tokens.Codespan).text), style: merge(style, {color: 'inlineCode'})});
			return;
		}

		case 'br': {
			out.push({text: '\n', style});
			return;
		}

		case 'link': {
			const link = token as Tokens.Link;
			addLink(link.href, link.tokens, link.text, style, options, out);
			return;
		}

		case 'image': {
			const image = token as Tokens.Image;
			const label = image.text === '' ? 'image' : `image: ${image.text}`;
			addLink(image.href, [{type: 'text', raw: label, text: label}], label, style, options, out);
			return;
		}

		case 'text': {
			const text = token as Tokens.Text;
			if (text.tokens && text.tokens.length > 0) out.push(...inlineFragments(text.tokens, style, options));
			else out.push({text: text.text, style});
			return;
		}

		default: {
			// escape, html and anything an extension of the lexer adds: its text as written.
			const text = 'text' in token && typeof token.text === 'string' ? token.text : token.raw;
			out.push({text, style});
		}
	}
}

/**
 * A link: its text, underlined; with OSC 8 the target rides along (only a
 * web or mail target, percent-encoded so it cannot end the sequence early);
 * without, or for any other target, the URL follows in brackets unless the
 * text is the URL already.
 */
function addLink(href: string, tokens: readonly Token[] | undefined, text: string, style: Style, options: InlineOptions, out: Fragment[]): void {
	const target = options.hyperlinks ? hyperlinkTarget(href) : null;
	const look = target === null ? merge(style, LINK) : merge(style, {...LINK, link: target});
	out.push(...inlineFragments(tokens, look, options));
	if (target !== null || text === href || `mailto:${text}` === href || href === '') return;
	out.push({text: ' (', style: merge(style, URL_STYLE)}, {text: href, style: merge(style, URL_STYLE)}, {text: ')', style: merge(style, URL_STYLE)});
}

/** A line break inside inline code or a link's text: a space, as the code is one run of text. */
function soft(text: string): string {
	return text.includes('\n') ? text.replaceAll('\n', ' ') : text;
}
