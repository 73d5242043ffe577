import {decodeEntities} from './html-entities.js';

/** Elements whose content is never text for a reader: dropped whole. */
const dropped = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'canvas', 'head']);
/** Elements that start and end a block: a line break around them. */
// biome-ignore format: a word list, many a line.
const blocks = new Set([
	'address', 'article', 'aside', 'blockquote', 'body', 'br', 'caption', 'dd', 'details', 'dialog', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure',
	'footer', 'form', 'header', 'hgroup', 'hr', 'html', 'legend', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'thead',
	'tfoot', 'tr', 'ul', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
]);
/** Blocks followed by a blank line. */
const paragraphs = new Set(['p', 'blockquote', 'pre', 'table', 'ul', 'ol', 'dl', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'section', 'article', 'figure']);

/**
 * A start or end tag. Nothing in it, quoted values included, may cross a
 * "<": a failed match then stops at the next tag, so broken markup cannot
 * make the scan quadratic.
 */
const tagPattern = /<(\/?)([A-Za-z][A-Za-z0-9:-]*)(?:[^<>"']|"[^"<]*"|'[^'<]*')*>/y;

export interface HtmlText {
	title: string;
	text: string;
	/** False when conversion stopped at `limit` characters with markup left over. */
	complete: boolean;
}

/**
 * Reduces HTML to readable text without running anything: scripts, styles
 * and other non-text elements are dropped, headings, paragraphs, list items
 * and table rows keep their breaks, whitespace collapses as a browser would
 * (kept inside <pre>), character references are decoded. One pass over the
 * input, linear in its length, stopping once `limit` characters of text are
 * out (what no one will be shown need not be converted).
 */
export function htmlToText(html: string, limit = Number.POSITIVE_INFINITY): HtmlText {
	const out: string[] = [];
	let title = '';
	let pre = 0;
	let at = 0;
	// Line breaks wanted before the next text: the larger of those asked for, so nested blocks do not stack blank lines.
	let pending = 0;
	let lineHasText = false;
	let emitted = 0;
	const emit = (piece: string) => {
		if (pending > 0 && out.length > 0) {
			out.push('\n'.repeat(pending));
			emitted += pending;
		}

		if (pending > 0) lineHasText = false;
		pending = 0;
		out.push(piece);
		emitted += piece.length;
		lineHasText ||= piece.trim() !== '';
	};
	const lineBreak = (count: number) => {
		pending = Math.max(pending, count);
	};
	const text = (raw: string) => {
		let collapsed = pre > 0 ? raw : raw.replace(/[ \t\n\r\f]+/g, ' ');
		// Whitespace at a line's start is nothing to a reader (outside <pre>).
		if (pre === 0 && (pending > 0 || !lineHasText)) collapsed = collapsed.trimStart();
		if (collapsed !== '') emit(decodeEntities(collapsed));
	};

	while (at < html.length && emitted <= limit) {
		const lt = html.indexOf('<', at);
		if (lt < 0) {
			text(html.slice(at));
			at = html.length;
			break;
		}

		text(html.slice(at, lt));
		if (html.startsWith('<!--', lt)) {
			const end = html.indexOf('-->', lt + 4);
			at = end < 0 ? html.length : end + 3;
			continue;
		}

		if (html[lt + 1] === '!' || html[lt + 1] === '?') {
			const end = html.indexOf('>', lt);
			at = end < 0 ? html.length : end + 1;
			continue;
		}

		tagPattern.lastIndex = lt;
		const tag = tagPattern.exec(html);
		if (!tag) {
			text('<');
			at = lt + 1;
			continue;
		}

		at = tagPattern.lastIndex;
		const closing = tag[1] === '/';
		const name = tag[2]!.toLowerCase();
		const selfClosing = tag[0].endsWith('/>');
		if (!closing && (name === 'title' || dropped.has(name)) && !selfClosing) {
			// Raw content up to the matching end tag; the title is kept aside (a <title> inside <svg> or <head> counts too).
			const end = findEndTag(html, name, at);
			const content = html.slice(at, end < 0 ? html.length : end);
			if (name === 'title' && title === '') title = content.replace(/\s+/g, ' ').trim();
			if (name === 'head') title ||= /<title[^>]*>([\s\S]*?)<\/title/i.exec(content)?.[1]?.replace(/\s+/g, ' ').trim() ?? '';
			const close = end < 0 ? -1 : html.indexOf('>', end);
			at = close < 0 ? html.length : close + 1;
			continue;
		}

		if (name === 'pre') pre = Math.max(0, pre + (closing ? -1 : 1));
		if (name === 'br') {
			// A forced break: kept even after another one.
			out.push('\n'.repeat(pending + 1));
			pending = 0;
			lineHasText = false;
		} else if (name === 'hr') {
			lineBreak(2);
			emit('---');
			lineBreak(2);
		} else if (!closing && /^h[1-6]$/.test(name)) {
			lineBreak(2);
			emit(`${'#'.repeat(Number(name[1]))} `);
		} else if (!closing && name === 'li') {
			lineBreak(1);
			emit('- ');
		} else if (!closing && (name === 'td' || name === 'th')) {
			if (lineHasText && pending === 0) emit(' | ');
		} else if (paragraphs.has(name)) lineBreak(2);
		else if (blocks.has(name)) lineBreak(1);
		else if (name === 'img' && !closing) {
			const alt = /\balt\s*=\s*("([^"]*)"|'([^']*)')/i.exec(tag[0]);
			const altText = alt?.[2] ?? alt?.[3];
			if (altText) emit(`[${decodeEntities(altText)}]`);
		}
	}

	return {title: decodeEntities(title), text: tidy(out.join('')), complete: at >= html.length};
}

const endTags = new Map<string, RegExp>();

/** Where `</name` next starts, in any case; -1 if nowhere. */
function findEndTag(html: string, name: string, from: number): number {
	let pattern = endTags.get(name);
	if (!pattern) {
		pattern = new RegExp(`</${name}`, 'gi');
		endTags.set(name, pattern);
	}

	pattern.lastIndex = from;
	return pattern.exec(html)?.index ?? -1;
}

/** Spaces before line breaks go, runs of blank lines (from <br>s) become one. */
function tidy(text: string): string {
	return text
		.replace(/\u00A0/g, ' ')
		.replace(/[ \t]+\n/g, '\n')
		.replace(/\n{3,}/g, '\n\n')
		.trim();
}
