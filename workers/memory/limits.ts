import {MAX_MEMORY_KEY_CHARS, MEMORY_KEY_PATTERN} from '../../source/core/plugins/memory-tools.js';
import {MAX_ENTRY_BYTES, MAX_SNAPSHOT_BYTES} from '../context-snapshot/context-snapshot.js';

/**
 * The memory module's limits in one place. An entry's text is bounded by
 * what one context snapshot entry may hold (64 KiB), and all entries
 * together by what one full snapshot may hold (256 KiB), so whatever is
 * stored can always be shown to the model and restored after a compaction.
 */
/** One entry's text, in UTF-8 bytes. */
export const MAX_TEXT_BYTES = MAX_ENTRY_BYTES;
/** Entries in one workspace's memory. */
export const MAX_ENTRIES = 500;
/** All entries rendered as one full context snapshot, in UTF-8 bytes. */
export const MAX_TOTAL_BYTES = MAX_SNAPSHOT_BYTES;
/** memory.json on disk: the entries above with their dates and JSON escapes fit well under this; anything bigger is not ours. */
export const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** memory_read without a key: the listing's size in characters before the remaining entries are named by key only. */
export const MAX_LISTING_CHARS = 40_000;

const keyPattern = new RegExp(MEMORY_KEY_PATTERN);

/** Throws a message the model can act on when `key` is not a valid memory key. */
export function checkKey(key: string): void {
	const shown = JSON.stringify(key.length > 60 ? `${key.slice(0, 60)}…` : key);
	if (key.length < 1 || key.length > MAX_MEMORY_KEY_CHARS) throw new Error(`memory key ${shown} has ${key.length} characters; a key has 1–${MAX_MEMORY_KEY_CHARS}`);
	if (!keyPattern.test(key)) throw new Error(`memory key ${shown} is not valid: use ASCII letters, digits and . _ - : / only, starting with a letter or digit`);
}

/** Throws when `text` is empty or over MAX_TEXT_BYTES. */
export function checkText(key: string, text: string): void {
	if (text.length === 0) throw new Error(`memory text for "${key}" is empty; use memory_delete to remove an entry`);
	const bytes = Buffer.byteLength(text);
	if (bytes > MAX_TEXT_BYTES) throw new Error(`memory text for "${key}" is ${bytes} bytes; an entry may have at most ${MAX_TEXT_BYTES} (shorten it or split it into several entries)`);
}
