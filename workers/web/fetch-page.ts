import {StringDecoder} from 'node:string_decoder';
import {readCapped, sendGuarded, type CallGuard} from './guarded-request.js';
import {MAX_BODY_BYTES} from './limits.js';

export interface Page {
	/** Where the body came from, after redirects. */
	url: string;
	/** The URLs redirected from, in order. */
	redirects: string[];
	contentType: string;
	kind: 'html' | 'text';
	/** The body decoded as text. */
	text: string;
	/** The body was longer than MAX_BODY_BYTES and was cut there. */
	truncated: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GETs a page, following redirects within the call's guard (each one is a
 * request and is checked like the first). Only text is read: HTML, plain
 * text and JSON-like types; anything else is refused before its body is read.
 */
export async function fetchPage(target: string, guard: CallGuard): Promise<Page> {
	let url: URL;
	try {
		url = new URL(target);
	} catch {
		throw new Error(`not a valid URL: ${JSON.stringify(target)}`);
	}

	const redirects: string[] = [];
	for (;;) {
		const response = await sendGuarded(
			{
				url,
				method: 'GET',
				headers: {accept: 'text/html, application/xhtml+xml, text/plain;q=0.9, application/json;q=0.9, text/*;q=0.5', 'accept-encoding': 'identity', 'user-agent': 'i-agent web_fetch'},
			},
			guard,
		);
		const status = response.statusCode ?? 0;
		if (REDIRECTS.has(status)) {
			response.destroy();
			const location = response.headers.location;
			if (!location) throw new Error(`${url.href} answered HTTP ${status} without a Location header`);
			redirects.push(url.href);
			try {
				url = new URL(location, url);
			} catch {
				throw new Error(`${url.href} redirected to an invalid URL: ${JSON.stringify(location)}`);
			}

			continue;
		}

		if (status < 200 || status >= 300) {
			response.destroy();
			throw new Error(`${url.href} answered HTTP ${status}${response.statusMessage ? ` ${response.statusMessage}` : ''}`);
		}

		const contentType = response.headers['content-type'] ?? '';
		const kind = classify(contentType);
		if (!kind) {
			response.destroy();
			throw new Error(`${url.href} is ${contentType ? `"${contentType}"` : 'of no stated content type'}: only HTML, plain text and JSON are fetched`);
		}

		const encoding = response.headers['content-encoding'];
		if (encoding && encoding !== 'identity') {
			response.destroy();
			throw new Error(`${url.href} sent a "${encoding}" encoded body although none was asked for`);
		}

		const {bytes, truncated} = await readCapped(response, MAX_BODY_BYTES, guard.signal);
		return {url: url.href, redirects, contentType, kind, text: decode(bytes, contentType), truncated};
	}
}

/** html, text, or undefined for a type that is not fetched. */
function classify(contentType: string): Page['kind'] | undefined {
	const type = contentType.split(';')[0]!.trim().toLowerCase();
	if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
	if (type.startsWith('text/') || type === 'application/json' || type.endsWith('+json') || type === 'application/xml' || type.endsWith('+xml')) return 'text';
	return undefined;
}

/** The stated charset, else UTF-8; a cut-off character at the end is dropped. */
function decode(bytes: Buffer, contentType: string): string {
	const charset = /;\s*charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1]?.toLowerCase();
	if (charset && charset !== 'utf-8' && charset !== 'utf8') {
		try {
			return new TextDecoder(charset).decode(bytes);
		} catch {
			// An unknown charset: read it as UTF-8 rather than fail.
		}
	}

	return new StringDecoder('utf8').write(bytes);
}
