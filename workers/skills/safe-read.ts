import {lstatSync, realpathSync, type Stats} from 'node:fs';
import {open, stat, type FileHandle} from 'node:fs/promises';
import path from 'node:path';
import {isInside} from '../../source/core/tools/paths.js';
import {MAX_SKILL_FILE_BYTES} from './limits.js';

/** A file a skill may not give out; the message says which rule. */
export class SkillFileError extends Error {}

/**
 * The real path of `relative` inside the skill folder `folder` (itself a
 * real path), refusing: an empty path, a NUL byte, an absolute path, any
 * ".." segment, and a path whose symlinks resolve outside the folder
 * (checked on the canonical path, so a symlinked folder on the way counts).
 * Synchronous: one realpath, for every skill on every turn.
 */
export function resolveInSkill(folder: string, relative: string): string {
	if (relative.includes('\0')) throw new SkillFileError('the path contains a NUL byte');
	if (relative.trim() === '') throw new SkillFileError("the path is empty; name a file relative to the skill's folder");
	if (path.isAbsolute(relative) || path.win32.isAbsolute(relative)) throw new SkillFileError(`${JSON.stringify(relative)} is absolute; name a file relative to the skill's folder`);
	if (relative.split(/[\\/]/).includes('..')) throw new SkillFileError(`${JSON.stringify(relative)} contains ".."; a skill's files are read only from inside its folder`);
	const joined = path.join(folder, relative);
	let real: string;
	try {
		// A name right inside the (real) folder that is no symlink is its own real path: no walk through every folder above it.
		real = isPlainEntry(folder, relative, joined) ? joined : realpathSync.native(joined);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === 'ENOENT' || code === 'ENOTDIR') throw new SkillFileError(`${JSON.stringify(relative)} does not exist in the skill's folder`);
		throw new SkillFileError(`${JSON.stringify(relative)} cannot be resolved (${code ?? String(error)})`);
	}

	if (!isInside(folder, real)) throw new SkillFileError(`${JSON.stringify(relative)} is a symlink (or passes through one) that resolves outside the skill's folder, to ${real}`);
	return real;
}

/** Whether `relative` is a single name (no separator at all) whose entry `joined` in `folder` exists and is not a symlink. */
function isPlainEntry(folder: string, relative: string, joined: string): boolean {
	if (/[\\/]/.test(relative) || path.dirname(joined) !== folder) return false;
	return !lstatSync(joined).isSymbolicLink();
}

/**
 * The UTF-8 text of the regular file at `file`, refusing folders and other
 * non-files (a FIFO would block), files over MAX_SKILL_FILE_BYTES, and
 * binary files (a NUL byte or bytes that are not UTF-8). `name` is how
 * messages call the file. The size is checked on the open handle and the
 * read is capped, so a file growing meanwhile cannot slip past the limit.
 */
export async function readSkillText(file: string, name: string): Promise<string> {
	let handle: FileHandle;
	try {
		// Checked before opening too: opening a FIFO would wait for a writer.
		checkStats(await stat(file), name);
		handle = await open(file, 'r');
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === 'EISDIR') throw new SkillFileError(`${name} is a folder, not a file`);
		if (code === 'ENOENT') throw new SkillFileError(`${name} does not exist`);
		if (error instanceof SkillFileError) throw error;
		throw new SkillFileError(`${name} cannot be opened (${code ?? String(error)})`);
	}

	try {
		checkStats(await handle.stat(), name);
		const buffer = Buffer.alloc(MAX_SKILL_FILE_BYTES + 1);
		let length = 0;
		while (length < buffer.length) {
			const {bytesRead} = await handle.read(buffer, length, buffer.length - length, length);
			if (bytesRead === 0) break;
			length += bytesRead;
		}

		if (length > MAX_SKILL_FILE_BYTES) throw new SkillFileError(`${name} grew past ${MAX_SKILL_FILE_BYTES} bytes while being read`);
		const bytes = buffer.subarray(0, length);
		if (bytes.includes(0)) throw new SkillFileError(`${name} is a binary file (it has NUL bytes); only text files can be read`);
		try {
			return new TextDecoder('utf-8', {fatal: true}).decode(bytes);
		} catch {
			throw new SkillFileError(`${name} is a binary file (not valid UTF-8); only text files can be read`);
		}
	} finally {
		await handle.close();
	}
}

function checkStats(stats: Stats, name: string): void {
	if (stats.isDirectory()) throw new SkillFileError(`${name} is a folder, not a file`);
	if (!stats.isFile()) throw new SkillFileError(`${name} is not a regular file`);
	if (stats.size > MAX_SKILL_FILE_BYTES) throw new SkillFileError(`${name} is ${stats.size} bytes; a skill file may have at most ${MAX_SKILL_FILE_BYTES}`);
}
