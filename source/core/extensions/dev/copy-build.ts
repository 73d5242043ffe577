import {copyFile, lstat, mkdir, readdir, readlink, symlink} from 'node:fs/promises';
import {dirname, join, resolve} from 'node:path';
import {BuildFailedError} from './build-script.js';

/** A built extension is a few files; past these the copy is a mistake (sources, fixtures or a dependency tree caught by the rule), refused before it fills the disk with one copy per build. */
export const MAX_STAGED_FILES = 5000;
export const MAX_STAGED_BYTES = 64 * 1024 * 1024;
/** Never copied: dependencies are linked beside the copy instead, and version control is no part of a build. */
const skipped = new Set(['node_modules', '.git']);

/**
 * Copies the given paths (files or folders, relative to `from`) into `to`,
 * keeping where they are. node_modules and .git are skipped at any depth;
 * a symbolic link is copied as a link to the same absolute target; a path
 * that does not exist is skipped (a package.json "files" entry may name one
 * the build did not make). More than MAX_STAGED_FILES files or
 * MAX_STAGED_BYTES bytes in all is a BuildFailedError saying how to stage less.
 */
export async function copyBuild(from: string, to: string, paths: readonly string[], what: string): Promise<void> {
	let files = 0;
	let bytes = 0;
	const copied = new Set<string>();
	const tooBig = (limit: string) =>
		new BuildFailedError(`${what} has ${limit} to copy into ${to} (${paths.join(', ')}); a staged build holds what the extension needs at run time: list that in package.json "files"`);

	const copy = async (relative: string): Promise<void> => {
		const source = join(from, relative);
		if (copied.has(source)) return;
		copied.add(source);
		const stats = await lstat(source).catch(() => undefined);
		if (!stats) return;
		const target = join(to, relative);
		await mkdir(dirname(target), {recursive: true});
		if (stats.isSymbolicLink()) {
			await symlink(resolve(dirname(source), await readlink(source)), target);
		} else if (stats.isDirectory()) {
			await mkdir(target, {recursive: true});
			for (const name of await readdir(source)) if (!skipped.has(name)) await copy(join(relative, name));
		} else if (stats.isFile()) {
			if (++files > MAX_STAGED_FILES) throw tooBig(`more than ${MAX_STAGED_FILES} files`);
			bytes += stats.size;
			if (bytes > MAX_STAGED_BYTES) throw tooBig(`more than ${MAX_STAGED_BYTES / (1024 * 1024)} MiB`);
			await copyFile(source, target);
		}
	};

	for (const path of paths) await copy(path);
}
