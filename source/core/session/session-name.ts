import {UsageError} from '../errors.js';
import type {Message} from '../messages.js';
import {attachmentsOf} from '../mentions/attachment-parts.js';
import {userBashOf} from '../user-bash/user-bash-message.js';

/**
 * Names of the chat screen's sessions in `<data_dir>/workspaces/<id>/sessions/`
 * (spec/platform.md §3). Unlike `--session-name` (session-store.ts: ASCII, so a
 * project's `.i/sessions` can be shared through any file system), these live
 * only under the data folder, so a name is letters and digits of any script
 * (a Chinese first message gets a Chinese name), `.`, `_` and `-`; 1–64
 * characters, not starting with `.` (hidden files are the folder's own:
 * the index, a new session's provisional file).
 */
export const MAX_SESSION_NAME_CHARS = 64;
/** A name taken from a first message keeps this many of its characters… */
export const MAX_SLUG_CHARS = 40;
/** …and at most this many of its words. */
export const MAX_SLUG_WORDS = 6;
/** `name-2` … `name-999`; past that a clash is so unlikely that a random suffix ends the search. */
export const MAX_NAME_SUFFIX = 999;
/** The name of a session whose first message has no letter or digit (an image, punctuation). */
export const FALLBACK_SESSION_NAME = 'session';

const namePattern = /^(?!\.)[\p{L}\p{N}\p{M}._-]+$/u;

/** Why `name` is not a session name, or null when it is one. */
export function sessionNameProblem(name: string): string | null {
	const length = [...name].length;
	if (length === 0) return 'it is empty';
	if (length > MAX_SESSION_NAME_CHARS) return `it has ${length} characters, over the limit of ${MAX_SESSION_NAME_CHARS}`;
	if (!namePattern.test(name)) return "use letters, digits, '.', '_' and '-' only, not starting with '.'";
	return null;
}

/** `name` normalised (NFC, so the same name typed two ways is one file), or a UsageError saying what is wrong. */
export function checkSessionName(name: string): string {
	const normal = name.normalize('NFC');
	const problem = sessionNameProblem(normal);
	if (problem) throw new UsageError(`session name ${JSON.stringify(name)} is invalid: ${problem}`);
	return normal;
}

/** A short name from a message's first words: lower case, words joined by `-`, within MAX_SLUG_WORDS and MAX_SLUG_CHARS. */
export function slugOf(text: string): string {
	const words = text
		.normalize('NFC')
		.toLowerCase()
		.split(/[^\p{L}\p{N}\p{M}]+/u)
		.filter(word => word !== '')
		.slice(0, MAX_SLUG_WORDS);
	let slug = '';
	for (const word of words) {
		const next = slug === '' ? word : `${slug}-${word}`;
		if ([...next].length <= MAX_SLUG_CHARS) {
			slug = next;
			continue;
		}
		// A first word longer than the limit is cut; a later one is left out whole.
		if (slug === '') slug = [...word].slice(0, MAX_SLUG_CHARS).join('');
		break;
	}
	return slug === '' ? FALLBACK_SESSION_NAME : slug;
}

/**
 * The text of the first user message that has some (a delivered extension
 * message counts: it is what the session began with): what the person typed,
 * not the files its @-mentions attached; a `!` command's output is not a
 * message and is passed over.
 */
export function firstUserText(messages: readonly Message[]): string | null {
	for (const message of messages) {
		if (message.role !== 'user' || message._tool_call_id !== undefined || userBashOf(message)) continue;
		const {text} = attachmentsOf(message.content);
		if (text.trim() !== '') return text;
	}
	return null;
}

/**
 * `base`, or `base-2`, `base-3` … the first that `taken` says is free;
 * past MAX_NAME_SUFFIX a random suffix. The caller still creates the file
 * without replacing one (a clash that comes meanwhile fails there).
 */
export async function unusedName(base: string, taken: (name: string) => Promise<boolean>): Promise<string> {
	for (let n = 1; n <= MAX_NAME_SUFFIX; n++) {
		const candidate = n === 1 ? base : withSuffix(base, `-${n}`);
		if (!(await taken(candidate))) return candidate;
	}
	return withSuffix(base, `-${Math.random().toString(16).slice(2, 10)}`);
}

/** `base` with `suffix`, `base` cut so the whole stays within MAX_SESSION_NAME_CHARS. */
export function withSuffix(base: string, suffix: string): string {
	const room = MAX_SESSION_NAME_CHARS - [...suffix].length;
	return `${[...base].slice(0, room).join('')}${suffix}`;
}
