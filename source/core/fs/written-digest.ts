import {createHash} from 'node:crypto';
import {readFileSync, writeFileSync} from 'node:fs';

/**
 * Beside a state file `i` writes from checked data (cache statistics, the
 * session index, the workspace registry), `<path>.sha256`: the digest of the
 * text last written there. A file whose text still has that digest is as
 * written, valid by construction, and its reader may take its JSON without
 * running the schema over every entry again; any other text (edited by a
 * person, written by an older version, or beside a digest that is torn or
 * missing) is checked in full. Checking is most of what reading such a file
 * costs, the cache's records are read twice per one-shot, and the session
 * index grows with every session.
 */
export function writtenDigestPath(path: string): string {
	return `${path}.sha256`;
}

function digestOf(text: string): string {
	return createHash('sha256').update(text).digest('hex');
}

/** Whether `text`, just read from `path`, is what was last written there through `noteWritten`. */
export function isAsWritten(path: string, text: string): boolean {
	let noted: string;
	try {
		noted = readFileSync(writtenDigestPath(path), 'utf8');
	} catch {
		return false;
	}

	return noted === digestOf(text);
}

/**
 * Notes `text` as what was just written to `path`, under the same lock as
 * the write. Not atomic, and need not be: a torn, stale or missing digest
 * matches no text, and the next read checks the file in full. Never throws:
 * the file itself is in place, and its writer must not take a failure here
 * for one of the write (cache statistics would queue their changes again).
 */
export async function noteWritten(path: string, text: string): Promise<void> {
	// Synchronous, like the digest's reading: 64 bytes, and three trips through the thread pool cost more.
	try {
		writeFileSync(writtenDigestPath(path), digestOf(text));
	} catch {
		// See above: a missing digest only means the next read checks the file in full.
	}
}
