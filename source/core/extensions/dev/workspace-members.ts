import {readdir, stat} from 'node:fs/promises';
import {join, posix} from 'node:path';
import picomatch from 'picomatch';
import {UsageError} from '../../errors.js';
import {readPackageManifest} from './package-manifest.js';

/** A workspace member: its folder and its package.json `name`. */
export interface WorkspaceMember {
	name: string;
	folder: string;
}

/** Folders looked at while matching the patterns: a root whose patterns reach into a huge tree is refused rather than walked for minutes. */
export const MAX_SCANNED_FOLDERS = 10_000;
/** npm's patterns name member folders a few levels down (`packages/*`, `apps/**`); deeper is no package layout. */
const MAX_DEPTH = 8;
const globCharacters = /[*?[\]{}()]/;

/**
 * The member packages of an npm workspace root, as npm reads `workspaces`:
 * glob patterns of folders relative to the root (`packages/*`), `!pattern`
 * excluding, each match a member when it has a package.json. node_modules
 * and hidden folders are never members. Sorted by folder.
 */
export async function workspaceMembers(root: string, patterns: readonly string[]): Promise<WorkspaceMember[]> {
	const include = patterns.filter(pattern => !pattern.startsWith('!')).map(normalise);
	const exclude = patterns.filter(pattern => pattern.startsWith('!')).map(pattern => normalise(pattern.slice(1)));
	const included = picomatch(include.length > 0 ? include : ['']);
	const excluded = exclude.length > 0 ? picomatch(exclude) : () => false;
	const found = new Set<string>();
	let scanned = 0;

	const walk = async (relative: string, depth: number): Promise<void> => {
		if (++scanned > MAX_SCANNED_FOLDERS) {
			throw new UsageError(`the workspaces of ${join(root, 'package.json')} (${patterns.join(', ')}) reach more than ${MAX_SCANNED_FOLDERS} folders; name the member folders more narrowly`);
		}

		if (relative !== '' && included(relative) && !excluded(relative)) found.add(relative);
		if (depth >= MAX_DEPTH) return;
		const entries = await readdir(join(root, relative), {withFileTypes: true}).catch(() => []);
		for (const entry of entries) {
			if (!entry.isDirectory() || entry.name.startsWith('.') || entry.name === 'node_modules') continue;
			await walk(relative === '' ? entry.name : `${relative}/${entry.name}`, depth + 1);
		}
	};

	// Each pattern's walk starts at its fixed part: `packages/*` looks in packages/ only.
	for (const base of new Set(include.map(staticBase))) {
		if (base !== '' && !(await stat(join(root, base)).catch(() => undefined))?.isDirectory()) continue;
		await walk(base, base === '' ? 0 : base.split('/').length);
	}

	const members: WorkspaceMember[] = [];
	for (const relative of [...found].sort()) {
		const folder = join(root, relative);
		const read = await readPackageManifest(folder);
		if (read) members.push({name: read.manifest.name ?? relative, folder});
	}

	return members;
}

/** `./packages/*\/` → `packages/*`. */
function normalise(pattern: string): string {
	return posix
		.normalize(pattern.replaceAll('\\', '/'))
		.replace(/^\.(?:\/|$)/, '')
		.replace(/\/+$/, '');
}

/** The leading segments without glob characters: where matches can be. */
function staticBase(pattern: string): string {
	const segments = pattern.split('/');
	const fixed: string[] = [];
	for (const segment of segments) {
		if (globCharacters.test(segment)) break;
		fixed.push(segment);
	}

	return fixed.join('/');
}
