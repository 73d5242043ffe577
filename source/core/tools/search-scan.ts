import {closeSync, constants, fstatSync, openSync, readSync} from 'node:fs';
import {looksBinary} from './file-content.js';
import {matchLines, MAX_SCANNED_LINE_CHARS, type LineMatch} from './match-lines.js';

/** spec/platform.md §9: oversized files are skipped. */
const MAX_SEARCH_FILE_BYTES = 1024 * 1024;
/** Files are matched in batches of about this much text, each under one regex time limit. */
const BATCH_CHARS = 1024 * 1024;
/** Files read between two turns of the event loop. */
const READ_CHUNK = 128;

export interface Tally {
	searched: number;
	binary: number;
	oversized: number;
	unreadable: number;
	longLines: number;
	timedOut: boolean;
}

const emptyTally = (): Tally => ({searched: 0, binary: 0, oversized: 0, unreadable: 0, longLines: 0, timedOut: false});

/** What a scan looks for: a regex by source and flags (so it can cross to a worker thread), and the literal it came from, if any. */
export interface ScanPattern {
	source: string;
	flags: string;
	/** The pattern as typed, when it is literal text (not a regex). */
	literal: string | null;
}

export interface ScanResult {
	/** In file order: the index of the file in the scanned list, and the match. */
	hits: Array<{file: number; match: LineMatch}>;
	tally: Tally;
}

/**
 * Reads and matches `files` in order until `maxResults` matches. Small files
 * are read synchronously, a chunk at a time (three system calls each instead
 * of trips through the thread pool); between chunks `pause` runs, so a screen
 * stays live and an abort lands.
 */
export async function scanFiles(files: readonly string[], pattern: ScanPattern, maxResults: number, pause: () => Promise<void>): Promise<ScanResult> {
	const regex = new RegExp(pattern.source, pattern.flags);
	const cannotMatch = quickRejecter(pattern, regex);
	const tally = emptyTally();
	const hits: ScanResult['hits'] = [];
	let batch: Array<{file: number; text: string}> = [];
	let batchChars = 0;
	const flush = () => {
		const result = matchLines(
			regex,
			batch.map(item => item.text),
			maxResults - hits.length,
		);
		tally.longLines += result.longLinesSkipped;
		tally.timedOut = result.timedOut;
		for (const match of result.matches) hits.push({file: batch[match.text]!.file, match});
		batch = [];
		batchChars = 0;
	};

	for (let start = 0; start < files.length && hits.length < maxResults && !tally.timedOut; start += READ_CHUNK) {
		if (start > 0) await pause();
		for (let file = start; file < Math.min(files.length, start + READ_CHUNK); file++) {
			if (hits.length >= maxResults || tally.timedOut) break;
			const text = readSearchable(files[file]!, tally, cannotMatch);
			if (text === null) continue;
			tally.searched++;
			batch.push({file, text});
			batchChars += text.length;
			if (batchChars >= BATCH_CHARS) flush();
		}
	}

	if (batch.length > 0 && hits.length < maxResults && !tally.timedOut) flush();
	return {hits, tally};
}

/** One buffer for every read: a file within the limit fits, and one byte more tells a file over it. */
const readBuffer = Buffer.allocUnsafe(MAX_SEARCH_FILE_BYTES + 1);

/**
 * A file's text for searching, or null (counted in the tally) when it is not
 * a readable regular text file within the size limit. Three system calls:
 * open (non-blocking, so a FIFO put where a file was walked cannot hang it),
 * read, close; and a stat when nothing or too much was read, so a FIFO or a
 * device counts as unreadable, as a folder (whose read fails) does.
 */
function readSearchable(file: string, tally: Tally, cannotMatch: (bytes: Buffer) => boolean): string | null {
	let fd: number;
	try {
		fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
	} catch {
		tally.unreadable++;
		return null;
	}

	try {
		let length = 0;
		for (let read = -1; read !== 0 && length < readBuffer.length; length += read) read = readSync(fd, readBuffer, length, readBuffer.length - length, null);
		// Nothing or too much read: a FIFO without a writer or a device may be behind the name, not a file.
		if ((length === 0 || length > MAX_SEARCH_FILE_BYTES) && !fstatSync(fd).isFile()) {
			tally.unreadable++;
			return null;
		}

		if (length > MAX_SEARCH_FILE_BYTES) {
			tally.oversized++;
			return null;
		}

		const content = readBuffer.subarray(0, length);
		if (looksBinary(content)) {
			tally.binary++;
			return null;
		}

		// Searched, and found to hold no match without decoding it (a line too long to scan is still decoded, to be counted).
		if (cannotMatch(content) && !hasLongLine(content)) return '';
		return content.toString('utf8');
	} catch {
		tally.unreadable++;
		return null;
	} finally {
		closeSync(fd);
	}
}

/** Whether some line has more bytes than a scanned line may have characters (so it may be too long to scan). */
function hasLongLine(bytes: Buffer): boolean {
	if (bytes.length <= MAX_SCANNED_LINE_CHARS) return false;
	for (let start = 0; ; ) {
		const end = bytes.indexOf(10, start);
		if ((end === -1 ? bytes.length : end) - start > MAX_SCANNED_LINE_CHARS) return true;
		if (end === -1) return false;
		start = end + 1;
	}
}

/**
 * A test on a file's bytes that proves it holds no match, for literal ASCII
 * patterns (most searches): case-sensitive, the bytes must contain the
 * pattern's; otherwise the bytes read as Latin-1 (one character a byte, no
 * decoding) must match the pattern's regex, which for an ASCII literal is
 * exactly "some line's UTF-8 text matches" (no byte of a multi-byte
 * character is ASCII or case-folds to it). Anything else is always decoded.
 */
function quickRejecter(pattern: ScanPattern, regex: RegExp): (bytes: Buffer) => boolean {
	const {literal} = pattern;
	if (literal === null || !/^[\x20-\x7e]+$/.test(literal)) return () => false;
	if (!regex.flags.includes('i')) {
		const needle = Buffer.from(literal, 'latin1');
		return bytes => !bytes.includes(needle);
	}

	return bytes => !regex.test(bytes.toString('latin1'));
}
