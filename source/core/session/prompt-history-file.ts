import {constants, type Stats} from 'node:fs';
import type {FileHandle} from 'node:fs/promises';

/** The prompts kept per workspace: the newest 1000 (a shell's HISTSIZE is of this order). */
export const MAX_HISTORY_ENTRIES = 1000;
/** A prompt whose stored line (its JSON, without the newline) is over 16 KiB is not kept: one big paste would outweigh hundreds of prompts. */
export const MAX_HISTORY_ENTRY_BYTES = 16 * 1024;
/** Lines past the bound before the file is trimmed: trimming at every append would rewrite the whole file each time. */
export const HISTORY_TRIM_SLACK = 100;
/** The most bytes read from the end of the file: the bound and its slack, each line at the cap. */
export const MAX_HISTORY_READ_BYTES = (MAX_HISTORY_ENTRIES + HISTORY_TRIM_SLACK) * (MAX_HISTORY_ENTRY_BYTES + 1);

/** Read-write and appending: the last line is read (a repeat is not kept) before a new one goes at the end. */
export const appendFlags = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK;
/** Non-blocking, so a FIFO at the path is opened at once and refused by fstat rather than waited on. */
export const readFlags = constants.O_RDONLY | constants.O_NONBLOCK;

/** What a history file holds: its prompts, oldest first, and how many of its lines were not prompts. */
export interface HistoryLines {
	entries: string[];
	/** Lines that are not valid UTF-8, not JSON, not `{"text": …}`, or over the cap. */
	skipped: number;
	/** Non-empty lines read, prompts or not: how far the file is past its bound. */
	lines: number;
}

const utf8 = new TextDecoder('utf-8', {fatal: true});

/** The stored line of a prompt, newline included. */
export function historyLine(text: string): string {
	return `${JSON.stringify({text})}\n`;
}

/** Whether a prompt is kept: not blank, and its line within the cap. */
export function isKept(text: string): boolean {
	return text.trim() !== '' && Buffer.byteLength(historyLine(text)) - 1 <= MAX_HISTORY_ENTRY_BYTES;
}

/** The prompt a line holds, or undefined for a line that is not one. */
function parseLine(bytes: Buffer): string | undefined {
	if (bytes.length > MAX_HISTORY_ENTRY_BYTES) return undefined;
	try {
		const value = JSON.parse(utf8.decode(bytes)) as unknown;
		if (typeof value === 'object' && value !== null && typeof (value as {text?: unknown}).text === 'string') return (value as {text: string}).text;
	} catch {
		// Not UTF-8 or not JSON: counted as skipped by the caller.
	}

	return undefined;
}

/** The prompts in `bytes`, consecutive repeats kept once; `partialFirst`: the first line was cut by the read window and is dropped. */
export function parseHistory(bytes: Buffer, partialFirst: boolean): HistoryLines {
	const result: HistoryLines = {entries: [], skipped: 0, lines: 0};
	let start = 0;
	if (partialFirst) {
		const newline = bytes.indexOf(0x0a);
		start = newline === -1 ? bytes.length : newline + 1;
	}

	while (start < bytes.length) {
		const newline = bytes.indexOf(0x0a, start);
		const end = newline === -1 ? bytes.length : newline;
		const line = bytes.subarray(start, end);
		start = end + 1;
		if (line.length === 0) continue;
		result.lines++;
		const text = parseLine(line);
		if (text === undefined) result.skipped++;
		else if (result.entries.at(-1) !== text) result.entries.push(text);
	}

	return result;
}

/** A file that is not a regular one, in words, for the notice. */
export function describeNonRegular(stats: Stats): string | undefined {
	if (stats.isFile()) return undefined;
	if (stats.isFIFO()) return 'a FIFO (named pipe)';
	if (stats.isDirectory()) return 'a folder';
	if (stats.isSocket()) return 'a socket';
	if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
	return 'not a regular file';
}

/** The last `maxBytes` of the open file (at most), and whether the read began mid-file. */
export async function readTail(handle: FileHandle, size: number, maxBytes: number): Promise<{bytes: Buffer; cut: boolean}> {
	const from = Math.max(0, size - maxBytes);
	const buffer = Buffer.allocUnsafe(size - from);
	let filled = 0;
	while (filled < buffer.length) {
		const {bytesRead} = await handle.read(buffer, filled, buffer.length - filled, from + filled);
		if (bytesRead === 0) break;
		filled += bytesRead;
	}

	return {bytes: buffer.subarray(0, filled), cut: from > 0};
}

/** The prompt on the file's last line, if it is one (a repeat of it is not appended), and whether that line lacks its newline (a writer died mid-line). */
export async function fileEnd(handle: FileHandle, size: number): Promise<{last: string | undefined; torn: boolean}> {
	const {bytes, cut} = await readTail(handle, size, MAX_HISTORY_ENTRY_BYTES + 2);
	return {last: parseHistory(bytes, cut).entries.at(-1), torn: bytes.length > 0 && bytes.at(-1) !== 0x0a};
}
