import type {UserContent} from '../core/messages.js';

/** A message's text blocks, joined; images counted. */
export function messageText(content: UserContent): string {
	if (typeof content === 'string') return content;
	const images = content.filter(part => part.type === 'image_url').length;
	const text = content.flatMap(part => (part.type === 'text' ? [part.text] : [])).join(' ');
	return images === 0 ? text : `${text}${text === '' ? '' : ' '}(${images} image${images === 1 ? '' : 's'})`;
}
