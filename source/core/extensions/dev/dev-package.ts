import {realpath, stat} from 'node:fs/promises';
import {basename, extname, join, relative, resolve} from 'node:path';
import {UsageError} from '../../errors.js';
import {packageEntry} from '../entry-point.js';
import {readPackageManifest, workspacePatterns, type PackageManifest} from './package-manifest.js';
import {workspaceMembers} from './workspace-members.js';

/** How a package is built: its own `build` script (npm), or its entry bundled with esbuild. */
export type DevBuildKind = {kind: 'script'} | {kind: 'bundle'; entry: string};

/** The extension package `i dev` builds. */
export interface DevPackage {
	/** package.json `name` (the extension's name), else the folder's name. */
	name: string;
	/** Its folder, canonical. */
	folder: string;
	/** The npm workspace root it was chosen from (its package.json and lock file are watched too), when there is one. */
	workspaceRoot: string | undefined;
	build: DevBuildKind;
}

export type FoundPackage = {kind: 'package'; package: DevPackage} | {kind: 'nothing'; reason: string};

/** Without a build script, the first of these that exists is bundled (after package.json's own `exports`/`main`). */
export const BUNDLE_ENTRIES = ['index.ts', 'index.mts', 'src/index.ts', 'src/index.mts', 'index.js', 'index.mjs', 'src/index.js', 'src/index.mjs'] as const;
/** What esbuild can bundle as an entry: TypeScript and JavaScript. */
const bundleExtensions = new Set(['.ts', '.mts', '.cts', '.tsx', '.js', '.mjs', '.cjs', '.jsx']);

/**
 * The package in `dir` (`i dev [DIR] [--package NAME]`): DIR's own package,
 * or, when DIR is an npm workspace root (`workspaces`), the member named by
 * `packageName`, which may be left out when there is one member only. A
 * name that is not there, or a workspace of several without one, is a
 * UsageError listing the packages. A folder without a package.json, or a
 * package with neither a `build` script nor an entry to bundle, is
 * "nothing to build", with the reason.
 */
export async function findDevPackage(dir: string, packageName: string | undefined): Promise<FoundPackage> {
	const folder = await existingFolder(dir);
	const read = await readPackageManifest(folder);
	if (!read) {
		if (packageName !== undefined) throw new UsageError(`${folder} has no package.json, so there is no package ${packageName} there`);
		return {kind: 'nothing', reason: `${folder} has no package.json`};
	}

	const patterns = workspacePatterns(read.manifest);
	if (patterns === undefined) {
		const name = read.manifest.name ?? basename(folder);
		if (packageName !== undefined && packageName !== name) throw new UsageError(`${folder} holds the package ${name}, not ${packageName}; leave --package out, or name the folder of ${packageName}`);
		return describe(folder, name, read.manifest, undefined);
	}

	const members = await workspaceMembers(folder, patterns);
	const list = members.map(member => `${member.name} (${relative(folder, member.folder)})`).join(', ');
	if (members.length === 0) throw new UsageError(`${read.path} is an npm workspace whose "workspaces" (${patterns.join(', ')}) match no package folder`);
	let chosen = members[0]!;
	if (packageName !== undefined) {
		const named = members.find(member => member.name === packageName);
		if (!named) throw new UsageError(`the npm workspace ${folder} has no package ${packageName}; its packages: ${list}`);
		chosen = named;
	} else if (members.length > 1) {
		throw new UsageError(`${folder} is an npm workspace of ${members.length} packages; choose one with --package NAME (-P NAME): ${list}`);
	}

	const member = await readPackageManifest(chosen.folder);
	return describe(chosen.folder, chosen.name, member!.manifest, folder);
}

async function existingFolder(dir: string): Promise<string> {
	const path = resolve(dir);
	const real = await realpath(path).catch(() => undefined);
	if (real === undefined) throw new UsageError(`${path} does not exist (the DIR of i dev: the extension package to build)`);
	if (!(await stat(real)).isDirectory()) throw new UsageError(`${path} is not a folder (the DIR of i dev: the extension package to build)`);
	return real;
}

async function describe(folder: string, name: string, manifest: PackageManifest, workspaceRoot: string | undefined): Promise<FoundPackage> {
	if (manifest.scripts?.build !== undefined) return {kind: 'package', package: {name, folder, workspaceRoot, build: {kind: 'script'}}};
	const target = packageEntry(manifest.exports) ?? manifest.main;
	const candidates = [...(target !== undefined && bundleExtensions.has(extname(target)) ? [target] : []), ...BUNDLE_ENTRIES];
	for (const candidate of candidates) {
		const file = join(folder, candidate);
		if ((await stat(file).catch(() => undefined))?.isFile()) return {kind: 'package', package: {name, folder, workspaceRoot, build: {kind: 'bundle', entry: file}}};
	}

	const named = target === undefined ? '' : `its package.json names ${target} as its entry, which is not there, and `;
	return {kind: 'nothing', reason: `${folder} (${name}): ${named}it has no "build" script and none of ${BUNDLE_ENTRIES.join(', ')} to bundle`};
}
