import {lstat, type FileHandle} from 'node:fs/promises';
import {errorMessage, UsageError} from '../errors.js';
import {writeFileAtomic} from '../fs/atomic-write.js';
import type {Message} from '../messages.js';
import {describeShapeProblem, HistoryShape} from '../history/history-shape.js';
import {firstIssue, sessionFormatVersion, sessionHeaderSchema, sessionStepSchema, type SessionHeader} from './session-schema.js';
import {checkRecordLine, deliveryIdOf, type RecordLine} from './session-records.js';

/** Largest session file we read; past it, a session must be continued in a new one. */
export const maxSessionBytes = 256 * 1024 * 1024;
/** A header is a few hundred bytes; no newline within this means some other file. */
const maxHeaderBytes = 64 * 1024;
const chunkBytes = 1024 * 1024;
const newline = 0x0a;

/** What opening a damaged session cut off its end (loadSessionFile). */
export interface SessionDropped {
	/** Bytes cut from the end of the file. */
	bytes: number;
	/** Lines among them, a last line without newline included. */
	lines: number;
	/** The first bad line and what is wrong with it: `line 7: not valid JSON`, `line 4: message 1 (tool): the tool result for "x" answers no tool call …`. */
	reason: string;
	/** The side file `<session path>.dropped-<time>` that holds the cut bytes, unchanged. */
	savedTo: string;
}

export interface LoadedSession {
	header: SessionHeader;
	steps: number;
	messages: Message[];
	/** The shape of those messages, which every step written next is checked against. */
	shape: HistoryShape;
	/** File size after any repair: where the next step goes. */
	size: number;
	dropped: SessionDropped | null;
	/** The `queued` and `entry` lines (session-records.ts), in file order. */
	records: RecordLine[];
	/** IDs of the deliveries committed in any step, a replaced history's included: they are never pending again. */
	delivered: Set<string>;
}

export type StepCheck = {ok: true; messages: Message[]; replacesHistory: boolean} | {ok: false; problem: string};

/** A line after the header: a step, or a delivery record (which is not a step and has no number). */
type LineCheck = (StepCheck & {record?: undefined}) | {ok: true; record: RecordLine};

/** The cut-off bytes hold conversation text: owner-only, like the session. */
const droppedFileMode = 0o600;

/**
 * Reads a session file through `handle` (opened read-write), refusing a file
 * that is not ours or not this workspace's before changing anything, then cuts
 * a torn or damaged tail back to the last good step. A step whose history a
 * provider would refuse (history-shape.ts) is damaged too: kept, it would fail
 * every request of the session. Steps after a bad line
 * cannot be trusted to follow on from the good ones, so the cut starts there;
 * but the cut bytes are first copied to `<path>.dropped-<time>`, and when that
 * copy fails the file is left as it is and the open refused.
 */
export async function loadSessionFile(handle: FileHandle, path: string, workspace: string): Promise<LoadedSession> {
	const {size} = await handle.stat();
	if (size > maxSessionBytes) {
		throw new UsageError(`session ${path} is ${size} bytes, over the limit of ${maxSessionBytes} (256 MiB); start another session`);
	}
	const {header, end: headerEnd} = await readHeader(handle, path, size);
	if (header.workspace !== workspace) {
		throw new UsageError(`session ${path} belongs to workspace ${header.workspace}; this run's workspace is ${workspace} (use -C ${header.workspace} or another session)`);
	}
	const messages: Message[] = [];
	const shape = new HistoryShape();
	let steps = 0;
	let goodEnd = headerEnd;
	let bad: {start: number; reason: string} | null = null;
	// The first step a provider would refuse (written by an older i, a hook it trusted, or by hand), and
	// where the file stood before it. A later compaction step replaces the history it belongs to, so that
	// step forgives it; else the cut starts there, as at a damaged line.
	let refused: {start: number; reason: string; end: number; steps: number; messages: number} | null = null;
	// Kept with the offset their line ends at: a cut further up takes them back.
	const records: Array<{end: number; record: RecordLine}> = [];
	const delivered: Array<{end: number; id: string}> = [];
	let lineNumber = 1;
	for await (const line of scanLines(handle, headerEnd, size)) {
		lineNumber++;
		const check: LineCheck = line.bytes ? checkLineBytes(line.bytes, steps + 1) : {ok: false as const, problem: 'incomplete (no newline at the end: the write was cut off)'};
		if (!check.ok) {
			bad = {start: line.start, reason: `line ${lineNumber}: ${check.problem}`};
			break;
		}

		if (check.record) {
			records.push({end: line.end, record: check.record});
			goodEnd = line.end;
			continue;
		}

		for (const message of check.messages) {
			const id = deliveryIdOf(message);
			if (id !== undefined) delivered.push({end: line.end, id});
		}
		if (check.replacesHistory) {
			messages.length = 0;
			refused = null;
		}
		if (!refused) {
			const problem = shape.problemOf(check.messages, {replaces: check.replacesHistory});
			if (problem) refused = {start: line.start, reason: `line ${lineNumber}: ${describeShapeProblem(problem)}`, end: goodEnd, steps, messages: messages.length};
			else shape.add(check.messages, {replaces: check.replacesHistory});
		}
		messages.push(...check.messages);
		steps++;
		goodEnd = line.end;
	}
	if (refused) {
		bad = {start: refused.start, reason: refused.reason};
		goodEnd = refused.end;
		steps = refused.steps;
		messages.length = refused.messages;
	}
	const kept = (end: number) => bad === null || end <= goodEnd;
	const deliveries = {records: records.filter(item => kept(item.end)).map(item => item.record), delivered: new Set(delivered.filter(item => kept(item.end)).map(item => item.id))};
	if (!bad) return {header, steps, messages, shape, size, dropped: null, ...deliveries};
	const lines = await countLines(handle, bad.start, size);
	const savedTo = await saveDropped(handle, path, goodEnd, size, bad.reason);
	await handle.truncate(goodEnd);
	await handle.sync();
	return {header, steps, messages, shape, size: goodEnd, dropped: {bytes: size - goodEnd, lines, reason: bad.reason, savedTo}, ...deliveries};
}

/** Copies `[from, to)` of the session to a new side file `<path>.dropped-<UTC time>` and returns its path. */
async function saveDropped(handle: FileHandle, path: string, from: number, to: number, reason: string): Promise<string> {
	let target = `${path}.dropped-${new Date().toISOString().replaceAll(':', '-').replace('.', '-')}`;
	try {
		target = await unusedName(target);
		await writeFileAtomic(target, readChunks(handle, from, to), {mode: droppedFileMode});
		return target;
	} catch (error) {
		throw new UsageError(
			`session ${path} is damaged (${reason}); repairing it cuts its last ${to - from} bytes, which must first be saved to ${target}, but that failed: ${errorMessage(error)}. The session was left unchanged; make its folder writable, or copy the session to a writable folder and open the copy`,
			{cause: error},
		);
	}
}

/** `base`, or `base-2`, `base-3` … if taken (by a repair in the same millisecond): a side file is never replaced. */
async function unusedName(base: string): Promise<string> {
	for (let n = 1; ; n++) {
		const candidate = n === 1 ? base : `${base}-${n}`;
		try {
			await lstat(candidate);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === 'ENOENT') return candidate;
			throw error;
		}
	}
}

/** `[from, to)` of the file in chunks, each valid until the next is asked for. */
async function* readChunks(handle: FileHandle, from: number, to: number): AsyncGenerator<Uint8Array> {
	const chunk = Buffer.allocUnsafe(chunkBytes);
	for (let position = from; position < to; ) {
		const {bytesRead} = await handle.read(chunk, 0, Math.min(chunkBytes, to - position), position);
		if (bytesRead === 0) throw new Error(`session file shrank while being read (at byte ${position})`);
		yield chunk.subarray(0, bytesRead);
		position += bytesRead;
	}
}

/** Checks a parsed step line: shape, messages, and that its number follows the previous one. */
export function checkStep(value: unknown, expected: number): StepCheck {
	const result = sessionStepSchema.safeParse(value);
	if (!result.success) return {ok: false, problem: `not a valid step (${firstIssue(result.error)})`};
	if (result.data.n !== expected) return {ok: false, problem: `step number ${result.data.n}, expected ${expected}`};
	return {ok: true, messages: result.data.messages as Message[], replacesHistory: result.data.replaces_history === true};
}

export function sessionHeaderLine(header: SessionHeader): string {
	return `${JSON.stringify(header)}\n`;
}

const utf8 = new TextDecoder('utf-8', {fatal: true});

function checkLineBytes(bytes: Uint8Array, expected: number): LineCheck {
	let text: string;
	try {
		text = utf8.decode(bytes);
	} catch {
		return {ok: false, problem: 'not valid UTF-8'};
	}
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return {ok: false, problem: 'not valid JSON'};
	}
	if (value !== null && typeof value === 'object' && ((value as {type?: unknown}).type === 'queued' || (value as {type?: unknown}).type === 'entry')) {
		const record = checkRecordLine(value as Record<string, unknown>);
		return record.ok ? {ok: true, record: record.line} : record;
	}
	return checkStep(value, expected);
}

async function readHeader(handle: FileHandle, path: string, size: number): Promise<{header: SessionHeader; end: number}> {
	const notSession = (reason: string) => new UsageError(`${path} is not an i session file (${reason})`);
	if (size === 0) throw notSession('it is empty');
	const buffer = Buffer.alloc(Math.min(size, maxHeaderBytes));
	const {bytesRead} = await handle.read(buffer, 0, buffer.length, 0);
	const end = buffer.subarray(0, bytesRead).indexOf(newline);
	if (end === -1) throw notSession('its first line is not a complete i-session header');
	let value: unknown;
	try {
		value = JSON.parse(utf8.decode(buffer.subarray(0, end)));
	} catch {
		throw notSession('its first line is not JSON');
	}
	const result = sessionHeaderSchema.safeParse(value);
	if (!result.success) throw notSession(`its first line is not an i-session header: ${firstIssue(result.error)}`);
	if (result.data.version !== sessionFormatVersion) {
		throw new UsageError(`session ${path} has format version ${result.data.version}, but this i reads version ${sessionFormatVersion}; use a newer i or another session`);
	}
	return {header: result.data, end: end + 1};
}

interface ScannedLine {
	start: number;
	/** Offset after the newline. */
	end: number;
	/** The line without its newline; null for a last line with no newline. Valid only until the next line is read. */
	bytes: Uint8Array | null;
}

/**
 * Lines of `[from, to)` with their offsets, read in fixed chunks. A line that
 * spans chunks is read again in one piece once its end is found, so memory
 * follows the longest line, and a tail with no newline is never held at all.
 */
async function* scanLines(handle: FileHandle, from: number, to: number): AsyncGenerator<ScannedLine> {
	const chunk = Buffer.allocUnsafe(chunkBytes);
	let lineStart = from;
	let position = from;
	while (position < to) {
		const {bytesRead} = await handle.read(chunk, 0, Math.min(chunkBytes, to - position), position);
		if (bytesRead === 0) break;
		const data = chunk.subarray(0, bytesRead);
		for (let index = data.indexOf(newline); index !== -1; index = data.indexOf(newline, index + 1)) {
			const end = position + index + 1;
			const bytes = lineStart >= position ? data.subarray(lineStart - position, index) : await readRange(handle, lineStart, end - 1);
			yield {start: lineStart, end, bytes};
			lineStart = end;
		}
		position += bytesRead;
	}
	if (lineStart < position) yield {start: lineStart, end: position, bytes: null};
}

async function readRange(handle: FileHandle, start: number, end: number): Promise<Buffer> {
	const buffer = Buffer.allocUnsafe(end - start);
	let done = 0;
	while (done < buffer.length) {
		const {bytesRead} = await handle.read(buffer, done, buffer.length - done, start + done);
		if (bytesRead === 0) throw new Error(`session file shrank while being read (at byte ${start + done})`);
		done += bytesRead;
	}
	return buffer;
}

/** Lines in `[from, to)`, a last line without newline included. */
async function countLines(handle: FileHandle, from: number, to: number): Promise<number> {
	const chunk = Buffer.allocUnsafe(chunkBytes);
	let lines = 0;
	let last = newline;
	for (let position = from; position < to; ) {
		const {bytesRead} = await handle.read(chunk, 0, Math.min(chunkBytes, to - position), position);
		if (bytesRead === 0) break;
		const data = chunk.subarray(0, bytesRead);
		for (let index = data.indexOf(newline); index !== -1; index = data.indexOf(newline, index + 1)) lines++;
		last = data[bytesRead - 1] ?? newline;
		position += bytesRead;
	}
	return last === newline ? lines : lines + 1;
}
