import {stat} from 'node:fs/promises';
import {homedir} from 'node:os';
import {resolve} from 'node:path';
import {UsageError} from '../errors.js';

/**
 * What `i install SPEC` was given: a folder or a tarball on this machine
 * (made absolute here, since npm runs in the prefix, not where the person
 * is), or anything else npm takes (`name`, `name@version`, a git or URL
 * spec), passed to npm as written.
 */
export type PackageSpec = {kind: 'folder'; given: string; path: string} | {kind: 'tarball'; given: string; path: string} | {kind: 'npm'; given: string};

/** npm's own test for a path (npm-package-arg): `.` `/` `~/` `file:`, a drive letter, or a tarball's name. */
const pathLike = /^(?:\.|~[/\\]|[/\\]|file:|[a-zA-Z]:)/;
const tarballName = /\.(?:tgz|tar\.gz|tar)$/i;

export async function readPackageSpec(given: string, cwd: string): Promise<PackageSpec> {
	if (given.trim() === '') throw new UsageError('the package to install is empty; give an npm package name, a tarball or a folder');
	if (!pathLike.test(given) && !tarballName.test(given)) return {kind: 'npm', given};
	const written = given.startsWith('file:') ? given.slice('file:'.length) : given;
	const path = /^~[/\\]/.test(written) ? resolve(homedir(), written.slice(2)) : resolve(cwd, written);
	const stats = await stat(path).catch((error: NodeJS.ErrnoException) => {
		throw new UsageError(error.code === 'ENOENT' ? `${given}: no such file or folder (${path})` : `${given}: cannot read ${path} (${error.code ?? error.message})`);
	});
	if (stats.isDirectory()) return {kind: 'folder', given, path};
	if (stats.isFile() && tarballName.test(path)) return {kind: 'tarball', given, path};
	throw new UsageError(
		`${given} is neither a folder nor a package tarball (.tgz, .tar.gz, .tar); i install takes npm packages: to load a single extension file, list it in settings.json "packages" or pass --extension ${given}`,
	);
}

/** `name` of `name`, `name@range`, `@scope/name@range`; undefined for specs that name no registry package (git, URLs). */
export function registryName(spec: string): string | undefined {
	const match = /^((?:@[^/@\s]+\/)?[^/@\s:]+)(?:@[^\s]*)?$/.exec(spec);
	return match?.[1];
}
