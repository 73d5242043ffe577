import {closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats} from 'node:fs';
import {open, stat, type FileHandle} from 'node:fs/promises';
import {UsageError} from '../errors.js';

/**
 * How one caller's file is named in errors and how big it may be. Every file
 * `i` reads as configuration (the model config, manifests, plugins.json,
 * bindings.json, module configs, prompt files, credentials a config names)
 * and the state and lock files it reads at start go through this module.
 */
export interface ConfigFileRule {
	/** How messages name the file: `config /x/config.json`, `manifest /x/tools.json`. */
	label: string;
	/** The most bytes the caller takes; one byte more is refused. */
	maxBytes: number;
	/** The end of the too-big message, after "the file is over N bytes, ": `too big for a config file`. */
	tooBig: string;
}

export interface RegularFile {
	bytes: Buffer;
	/** fstat of the handle the bytes were read from. */
	stats: Stats;
}

/**
 * Without O_NONBLOCK, opening a FIFO for reading waits for a writer: in the
 * thread pool that wait also keeps `process.exit` (which joins the pool's
 * threads) from ever returning, so not even SIGTERM ends the process. With
 * it the open returns at once, and fstat of the open handle then tells what
 * was opened. It changes nothing for a regular file.
 */
const openFlags = constants.O_RDONLY | constants.O_NONBLOCK;

/**
 * The bytes of the regular file at `path`, or undefined when it does not
 * exist (each caller says whether that is fine). Anything but a regular
 * file (a FIFO, /dev/zero, a socket, a folder) is refused without reading
 * or waiting on it, and so is a file past the cap, counted by the bytes
 * actually read (at most one past it), not by its stat size, which a device
 * or a file still growing would misstate. Failures are UsageErrors naming
 * the file.
 */
export async function readConfigFile(path: string, rule: ConfigFileRule): Promise<Buffer | undefined> {
	return (await readRegularFile(path, rule))?.bytes;
}

/** `readConfigFile` with the open handle's stats, for a caller that needs them too (a lock's age). */
export async function readRegularFile(path: string, rule: ConfigFileRule): Promise<RegularFile | undefined> {
	let handle: FileHandle;
	try {
		handle = await open(path, openFlags);
	} catch (error) {
		if (isMissing(error)) return undefined;
		throw openFailure(error, rule, statTells(error) ? await stat(path).catch(() => undefined) : undefined);
	}

	try {
		const stats = await handle.stat();
		checkRegular(stats, rule);
		const filling = new CappedFill(stats.size, rule.maxBytes);
		for (let room = filling.room(); room; room = filling.room()) {
			const {bytesRead} = await handle.read(room.buffer, room.offset, room.length, room.offset);
			if (bytesRead === 0) break;
			filling.add(bytesRead);
		}

		return {bytes: filling.bytes(rule), stats};
	} catch (error) {
		throw readFailure(error, rule);
	} finally {
		await handle.close();
	}
}

/** `readConfigFile` for a synchronous caller (the model config, read before anything else starts). */
export function readConfigFileSync(path: string, rule: ConfigFileRule): Buffer | undefined {
	return readRegularFileSync(path, rule)?.bytes;
}

export function readRegularFileSync(path: string, rule: ConfigFileRule): RegularFile | undefined {
	let fd: number;
	try {
		fd = openSync(path, openFlags);
	} catch (error) {
		if (isMissing(error)) return undefined;
		throw openFailure(error, rule, statTells(error) ? statQuietly(path) : undefined);
	}

	try {
		const stats = fstatSync(fd);
		checkRegular(stats, rule);
		const filling = new CappedFill(stats.size, rule.maxBytes);
		for (let room = filling.room(); room; room = filling.room()) {
			const bytesRead = readSync(fd, room.buffer, room.offset, room.length, room.offset);
			if (bytesRead === 0) break;
			filling.add(bytesRead);
		}

		return {bytes: filling.bytes(rule), stats};
	} catch (error) {
		throw readFailure(error, rule);
	} finally {
		closeSync(fd);
	}
}

/** The smallest first buffer: a file that stat calls empty or tiny may be growing while it is read. */
const MIN_BUFFER_BYTES = 4096;

/**
 * A buffer filled by reads, at most one byte past the cap. It starts at the
 * stat size (plus the byte that shows the end was reached) and grows only
 * if the file holds more than stat said, so a small file under a large cap
 * costs a small buffer.
 */
class CappedFill {
	#buffer: Buffer;
	#filled = 0;
	readonly #limit: number;

	constructor(statSize: number, maxBytes: number) {
		this.#limit = maxBytes + 1;
		this.#buffer = Buffer.allocUnsafe(Math.min(this.#limit, Math.max(statSize + 1, MIN_BUFFER_BYTES)));
	}

	/** Where the next read goes, or null once one byte past the cap is in. */
	room(): {buffer: Buffer; offset: number; length: number} | null {
		if (this.#filled === this.#buffer.length) {
			if (this.#buffer.length >= this.#limit) return null;
			const bigger = Buffer.allocUnsafe(Math.min(this.#limit, this.#buffer.length * 2));
			this.#buffer.copy(bigger, 0, 0, this.#filled);
			this.#buffer = bigger;
		}

		return {buffer: this.#buffer, offset: this.#filled, length: this.#buffer.length - this.#filled};
	}

	add(bytesRead: number): void {
		this.#filled += bytesRead;
	}

	/** The bytes read, or the caller's too-big error. */
	bytes(rule: ConfigFileRule): Buffer {
		if (this.#filled > rule.maxBytes) throw new UsageError(`${rule.label}: the file is over ${rule.maxBytes} bytes, ${rule.tooBig}`);
		return this.#buffer.subarray(0, this.#filled);
	}
}

function checkRegular(stats: Stats, rule: ConfigFileRule): void {
	if (!stats.isFile()) throw notRegular(stats, rule);
}

function notRegular(stats: Stats, rule: ConfigFileRule): UsageError {
	return new UsageError(`${rule.label} is ${describeKind(stats)}, not a regular file; only regular files are read`);
}

/** What a file that is not a regular one is, in words. */
function describeKind(stats: Stats): string {
	if (stats.isFIFO()) return 'a FIFO (named pipe)';
	if (stats.isCharacterDevice()) return 'a character device';
	if (stats.isBlockDevice()) return 'a block device';
	if (stats.isSocket()) return 'a socket';
	if (stats.isDirectory()) return 'a folder';
	return 'something else';
}

function readFailure(error: unknown, rule: ConfigFileRule): Error {
	if (error instanceof UsageError) return error;
	return new UsageError(`${rule.label}: cannot read it (${(error as NodeJS.ErrnoException | undefined)?.code ?? String(error)})`);
}

/** Whether an open failed in a way stat explains better: ENXIO is a socket, which cannot be opened at all. */
function statTells(error: unknown): boolean {
	const code = (error as NodeJS.ErrnoException).code;
	return code === 'ENXIO' || code === 'EISDIR';
}

/** The error for an open that failed, `stats` (when taken) saying what the path is. */
function openFailure(error: unknown, rule: ConfigFileRule, stats: Stats | undefined): Error {
	if (stats && !stats.isFile()) return notRegular(stats, rule);
	return readFailure(error, rule);
}

function isMissing(error: unknown): boolean {
	return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

function statQuietly(path: string): Stats | undefined {
	try {
		return statSync(path);
	} catch {
		// Gone meanwhile: the open's own error says enough.
		return undefined;
	}
}
