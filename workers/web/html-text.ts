import {Tokenizer} from 'htmlparser2';
import {TextLayout} from './text-layout.js';

/** Elements whose content is never text for a reader: dropped whole. */
const dropped = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'canvas', 'noembed', 'noframes', 'head']);
/** Foreign content: a self-closing tag in it closes, as in a browser; a self-closing HTML element stays open. */
const foreign = new Set(['svg', 'math']);
/** What a <head> holds; anything else (or text) starts the body, as in a browser. */
const headContent = new Set(['base', 'link', 'meta', 'noscript', 'script', 'style', 'template', 'title']);
/** Elements that start and end a block: a line break around them. */
// biome-ignore format: a word list, many a line.
const blocks = new Set([
	'address', 'article', 'aside', 'blockquote', 'body', 'caption', 'dd', 'details', 'dialog', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure',
	'footer', 'form', 'header', 'hgroup', 'html', 'legend', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'thead',
	'tfoot', 'tr', 'ul', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
]);
/** Blocks followed by a blank line. */
const paragraphs = new Set(['p', 'blockquote', 'pre', 'table', 'ul', 'ol', 'dl', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'section', 'article', 'figure']);
/** Input handed to the tokenizer at a time: a long run of text is laid out (and the limit checked) chunk by chunk. */
const CHUNK_CHARS = 16 * 1024;

export interface HtmlText {
	title: string;
	text: string;
	/** False when conversion stopped at `limit` characters with markup left over. */
	complete: boolean;
}

type TokenizerEvents = ConstructorParameters<typeof Tokenizer>[1];

/**
 * Reduces HTML to readable text without running anything. htmlparser2's
 * tokenizer reads the markup as a browser's does (comments, raw-text
 * elements, attributes, all 2,231 named character references and the
 * numeric ones); this keeps what a reader sees: scripts, styles and other
 * non-text elements dropped, headings, paragraphs, list items and table
 * rows with their breaks, whitespace collapsed (kept inside <pre>), an
 * image's alt text. No tree is built, so the work is linear in the input
 * however deep it nests, and it stops once `limit` characters of text are
 * out (what no one will be shown need not be converted).
 */
export function htmlToText(html: string, limit = Number.POSITIVE_INFINITY): HtmlText {
	const layout = new TextLayout();
	const open = new Map<string, number>();
	let hidden = 0;
	let pre = 0;
	let title: string | null = null;
	let titleText: string | null = null;
	let stopped = false;
	let tag = {name: '', attributes: new Map<string, string>()};
	let attribute = {name: '', value: ''};

	const close = (name: string) => {
		const count = open.get(name) ?? 0;
		if (count === 0) return false;
		open.set(name, count - 1);
		hidden--;
		return true;
	};
	const text = (piece: string) => {
		if (titleText !== null) {
			titleText += piece;
			return;
		}

		// Text after <head> starts the body.
		if (hidden > 0 && hidden === open.get('head') && /\S/.test(piece)) close('head');
		if (hidden > 0) return;
		layout.text(piece, pre > 0);
		if (layout.length > limit && !stopped) {
			stopped = true;
			tokenizer.pause();
		}
	};
	const start = (selfClosing: boolean) => {
		const {name, attributes} = tag;
		const inForeign = (open.get('svg') ?? 0) + (open.get('math') ?? 0) > 0;
		const closes = selfClosing && (inForeign || foreign.has(name));
		if ((open.get('head') ?? 0) > 0 && !headContent.has(name)) close('head');
		if (name === 'title') {
			// The first title is the page's, wherever it is (inside <svg> or <head> too); no title's text is the page's text.
			if (!closes) titleText = '';
			return;
		}

		if (dropped.has(name)) {
			if (!closes) {
				open.set(name, (open.get(name) ?? 0) + 1);
				hidden++;
			}

			return;
		}

		if (hidden === 0) startTag(layout, name, attributes, () => pre++);
	};

	const events: TokenizerEvents = {
		ontext: (from, to) => text(html.slice(from, to)),
		ontextentity: code => text(String.fromCodePoint(code)),
		onopentagname: (from, to) => {
			tag = {name: html.slice(from, to).toLowerCase(), attributes: new Map()};
		},
		onattribname: (from, to) => {
			attribute = {name: html.slice(from, to).toLowerCase(), value: ''};
		},
		onattribdata: (from, to) => {
			attribute.value += html.slice(from, to);
		},
		onattribentity: code => {
			attribute.value += String.fromCodePoint(code);
		},
		onattribend: () => {
			// The first of a repeated attribute counts, as in a browser.
			if (!tag.attributes.has(attribute.name)) tag.attributes.set(attribute.name, attribute.value);
		},
		onopentagend: () => start(false),
		onselfclosingtag: () => start(true),
		onclosetag: (from, to) => {
			const name = html.slice(from, to).toLowerCase();
			if (name === 'title' && titleText !== null) {
				title ??= titleText;
				titleText = null;
			} else if (!close(name) && hidden === 0) {
				if (name === 'pre') pre = Math.max(0, pre - 1);
				endTag(layout, name);
			}
		},
		isInForeignContext: () => (open.get('svg') ?? 0) + (open.get('math') ?? 0) > 0,
		oncomment: () => {},
		oncdata: () => {},
		ondeclaration: () => {},
		onprocessinginstruction: () => {},
		onend: () => {},
	};
	const tokenizer = new Tokenizer({decodeEntities: true}, events);
	for (let at = 0; at < html.length && !stopped; at += CHUNK_CHARS) tokenizer.write(html.slice(at, at + CHUNK_CHARS));
	if (!stopped) tokenizer.end();
	// A title never closed runs to the end of the page, as in a browser.
	const pageTitle = title ?? titleText ?? '';
	return {title: pageTitle.replace(/\s+/g, ' ').trim(), text: layout.result(), complete: !stopped};
}

/** What an element's start tag lays out: breaks before blocks, a heading's hashes, a list item's dash, a cell's bar, an image's alt text. */
function startTag(layout: TextLayout, name: string, attributes: ReadonlyMap<string, string>, openPre: () => void): void {
	if (name === 'pre') openPre();
	if (name === 'br') layout.forcedBreak();
	else if (name === 'hr') {
		layout.lineBreak(2);
		layout.emit('---');
		layout.lineBreak(2);
	} else if (/^h[1-6]$/.test(name)) {
		layout.lineBreak(2);
		layout.emit(`${'#'.repeat(Number(name[1]))} `);
	} else if (name === 'li') {
		layout.lineBreak(1);
		layout.emit('- ');
	} else if (name === 'td' || name === 'th') {
		if (layout.midLine) layout.emit(' | ');
	} else if (paragraphs.has(name)) layout.lineBreak(2);
	else if (blocks.has(name)) layout.lineBreak(1);
	else if (name === 'img') {
		const alt = attributes.get('alt');
		if (alt) layout.emit(`[${alt}]`);
	}
}

/** What an end tag lays out: the break after a block; `</br>` is a <br>, as in a browser. */
function endTag(layout: TextLayout, name: string): void {
	if (name === 'br') layout.forcedBreak();
	else if (paragraphs.has(name)) layout.lineBreak(2);
	else if (blocks.has(name)) layout.lineBreak(1);
}
