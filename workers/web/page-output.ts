import type {Page} from './fetch-page.js';
import {htmlToText} from './html-text.js';
import {MAX_BODY_BYTES} from './limits.js';

/**
 * What web_fetch returns: a short head (URL, redirects, title), the text,
 * and notes saying what was cut. The whole of it, notes included, is at
 * most `maxChars` characters (UTF-16 units, as the model's context counts
 * them closely enough).
 */
export function pageOutput(page: Page, maxChars: number): string {
	// Conversion stops a little past what can be shown: an HTML page's full text length is then unknown.
	const {title, text, complete} = page.kind === 'html' ? htmlToText(page.text, maxChars + 1) : {title: '', text: page.text, complete: true};
	const head = [`URL: ${page.url}`];
	if (page.redirects.length > 0) head.push(`Redirected from: ${page.redirects.join(' → ')}`);
	head.push(`Content-Type: ${page.contentType}`);
	if (title) head.push(`Title: ${title}`);
	const notes: string[] = [];
	if (page.truncated) notes.push(`[the page's body was cut at ${MAX_BODY_BYTES} bytes (1 MB); the text above is from its beginning]`);
	const top = `${head.join('\n')}\n\n`;
	const whole = `${top}${text}${notes.length > 0 ? `\n\n${notes.join('\n')}` : ''}`;
	if (whole.length <= maxChars && complete) return whole;

	const cutNote = (shown: number) =>
		complete
			? `[output cut at ${maxChars} characters: ${shown} of the text's ${text.length} characters shown]`
			: `[output cut at ${maxChars} characters: ${shown} characters of the text shown; the page has more]`;
	const tail = `\n\n${[...notes, cutNote(text.length)].join('\n')}`;
	let room = Math.max(0, maxChars - top.length - tail.length);
	// A cut through a surrogate pair would leave half a character.
	if (room > 0 && /[\uD800-\uDBFF]/.test(text[room - 1]!)) room--;
	const shown = text.slice(0, room);
	return `${top}${shown}\n\n${[...notes, cutNote(shown.length)].join('\n')}`.slice(0, maxChars);
}
