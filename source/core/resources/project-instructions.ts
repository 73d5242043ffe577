import {constants} from 'node:fs';
import {lstat, open, realpath, stat} from 'node:fs/promises';
import {dirname, join, relative, isAbsolute, sep} from 'node:path';
import {errorMessage} from '../errors.js';

/** The file every folder may hold (issue 17 item 3; the name peers share). */
export const INSTRUCTIONS_FILE = 'AGENTS.md';
/** Read in a folder that has no AGENTS.md, so a project set up for Claude Code is understood too (issue 45 point 12). */
export const FALLBACK_INSTRUCTIONS_FILE = 'CLAUDE.md';
/** Bytes of one file the model is given; a longer one is cut at a UTF-8 boundary with a note (issue 17 item 3). */
export const MAX_INSTRUCTIONS_FILE_BYTES = 64 * 1024;
/** Folders between the workspace and its repository root that are looked in: a bound for a workspace deep in a tree that has no `.git` above it. */
export const MAX_INSTRUCTION_FOLDERS = 64;

/** One AGENTS.md (or a folder's CLAUDE.md in its place) as the model is given it. */
export interface InstructionFile {
	/** Absolute, as found (the heading the model sees). */
	path: string;
	/** `global`: `<config_dir>/AGENTS.md`; `project`: the repository root's, a folder's between, or the workspace's. */
	scope: 'global' | 'project';
	/** The text given: the whole file, or its first MAX_INSTRUCTIONS_FILE_BYTES at a character boundary. */
	text: string;
	/** The file's real size in bytes. */
	bytes: number;
	/** True when `text` is only the file's beginning. */
	cut: boolean;
}

export interface ProjectInstructions {
	/** Global first, then the repository root down to the workspace: the nearest last. */
	files: InstructionFile[];
	/** Files that exist but could not be used, each with why (a notice for the person; the start goes on). */
	notices: string[];
}

/**
 * The folders whose AGENTS.md counts: the workspace and each folder above it
 * up to the repository root (the nearest folder holding `.git`, a folder or
 * a worktree's file), root first. Without a repository, the workspace alone:
 * a home folder's or `/`'s AGENTS.md is nobody's project.
 */
export async function instructionFolders(workspace: string): Promise<string[]> {
	const chain: string[] = [];
	let folder = workspace;
	for (let depth = 0; depth < MAX_INSTRUCTION_FOLDERS; depth++) {
		chain.push(folder);
		if (await exists(join(folder, '.git'))) return chain.reverse();
		const parent = dirname(folder);
		if (parent === folder) break;
		folder = parent;
	}

	return [workspace];
}

/**
 * Reads the global `<configDir>/AGENTS.md` and the project's (instructionFolders),
 * each folder's CLAUDE.md where it has no AGENTS.md. Missing files are
 * simply absent; one that cannot be used (a folder named AGENTS.md, a
 * socket, no permission, a symbolic link that leads out of the repository)
 * is a notice, never a failed start, and still counts as the folder's
 * AGENTS.md. The global file is the person's own and may link anywhere; a
 * project's comes with the code, and a link out of it could hand the model
 * (and its provider) any file of the person's, so it is refused.
 */
export async function readProjectInstructions(where: {workspace: string; configDir: string}): Promise<ProjectInstructions> {
	const folders = await instructionFolders(where.workspace);
	const root = await realpathOr(folders[0]!);
	const candidates = [{folder: where.configDir, scope: 'global' as const, within: null}, ...folders.map(folder => ({folder, scope: 'project' as const, within: root}))];
	// Read at once, reported in the files' order.
	const read = await Promise.all(candidates.map(async candidate => readFolder(candidate.folder, candidate.scope, candidate.within)));
	return {files: read.flatMap(entry => (entry.file ? [entry.file] : [])), notices: read.flatMap(entry => (entry.notice === undefined ? [] : [entry.notice]))};
}

/** A folder's AGENTS.md, else its CLAUDE.md: the first name that exists is the folder's file, even when it is empty or cannot be used. */
async function readFolder(folder: string, scope: InstructionFile['scope'], within: string | null): Promise<{file?: InstructionFile; notice?: string}> {
	for (const name of [INSTRUCTIONS_FILE, FALLBACK_INSTRUCTIONS_FILE]) {
		const path = join(folder, name);
		try {
			const file = await readInstructionFile(path, scope, within);
			if (file === 'missing') continue;
			return file === undefined ? {} : {file};
		} catch (error) {
			return {notice: `${path} was not read: ${errorMessage(error)}`};
		}
	}

	return {};
}

/** One file; `missing` when there is none, undefined when it is empty. Throws, with a reason for the notice, when it cannot be used. */
async function readInstructionFile(path: string, scope: InstructionFile['scope'], within: string | null): Promise<InstructionFile | 'missing' | undefined> {
	let link;
	try {
		link = await lstat(path);
	} catch (error) {
		if (isMissing(error)) return 'missing';
		throw error;
	}

	if (link.isSymbolicLink() && within !== null) {
		const target = await realpath(path).catch((error: unknown) => {
			throw isMissing(error) ? new Error('it is a symbolic link to nothing') : error;
		});
		if (!inside(within, target)) throw new Error(`it is a symbolic link to ${target}, outside the repository ${within}; a project's instructions stay inside it`);
	}

	const info = link.isSymbolicLink() ? await stat(path) : link;
	if (info.isDirectory()) throw new Error('it is a folder, not a file');
	if (!info.isFile()) throw new Error('it is not a regular file');
	// No-follow is not wanted here (a checked link is fine); non-blocking so a file swapped for a FIFO since the check cannot hang the start.
	const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
	try {
		const {size} = await handle.stat();
		const length = Math.min(size, MAX_INSTRUCTIONS_FILE_BYTES);
		const buffer = Buffer.alloc(length);
		let filled = 0;
		while (filled < length) {
			const {bytesRead} = await handle.read(buffer, filled, length - filled, filled);
			if (bytesRead === 0) break;
			filled += bytesRead;
		}

		const cut = size > MAX_INSTRUCTIONS_FILE_BYTES;
		const kept = cut ? buffer.subarray(0, utf8Boundary(buffer, filled)) : buffer.subarray(0, filled);
		const text = kept.toString('utf8');
		if (text.trim() === '') return undefined;
		return {path, scope, text, bytes: size, cut};
	} finally {
		await handle.close();
	}
}

/** The largest length ≤ `end` that does not split a UTF-8 character of `bytes`. */
export function utf8Boundary(bytes: Uint8Array, end: number): number {
	// The lead byte of the last character in [0, end): back over at most three continuation bytes (10xxxxxx).
	let start = end;
	while (start > 0 && end - start < 3 && (bytes[start - 1]! & 0xc0) === 0x80) start--;
	if (start === 0) return end;
	const lead = bytes[start - 1]!;
	const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
	// That character ends within `end`: nothing was split; else it is left out whole.
	return start - 1 + length <= end ? end : start - 1;
}

function inside(root: string, path: string): boolean {
	const rest = relative(root, path);
	return rest === '' || (!rest.startsWith(`..${sep}`) && rest !== '..' && !isAbsolute(rest));
}

async function exists(path: string): Promise<boolean> {
	try {
		await lstat(path);
		return true;
	} catch {
		return false;
	}
}

async function realpathOr(path: string): Promise<string> {
	try {
		return await realpath(path);
	} catch {
		return path;
	}
}

function isMissing(error: unknown): boolean {
	const code = (error as NodeJS.ErrnoException).code;
	return code === 'ENOENT' || code === 'ENOTDIR';
}
