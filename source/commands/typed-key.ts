import {MAX_SECRET_BYTES} from './read-secret.js';

export type TypedKey = {ok: true; key: string} | {ok: false; reason: string};

/**
 * Whether what a person typed or pasted as an API key can be one (`i auth
 * login`, the chat screen's first-run setup): trimmed, not empty, no longer
 * than MAX_SECRET_BYTES, and without spaces or control characters, which a
 * header cannot carry and no key holds (a paste of more than the key). The
 * reason never quotes the input.
 */
export function checkTypedKey(typed: string): TypedKey {
	if (Buffer.byteLength(typed) > MAX_SECRET_BYTES) return {ok: false, reason: `the key is longer than ${MAX_SECRET_BYTES} bytes, which is no API key; nothing was stored`};
	const key = typed.trim();
	if (key === '') return {ok: false, reason: 'no key was given (the input was empty); nothing was stored'};
	if (/[\s\u0000-\u001F\u007F]/.test(key)) return {ok: false, reason: 'the key holds spaces or control characters, which no API key does (a paste of more than the key?); nothing was stored'};
	return {ok: true, key};
}
