import {stat} from 'node:fs/promises';
import {isAbsolute, resolve} from 'node:path';
import {UsageError} from '../errors.js';
import {resolveEntryPoint} from './entry-point.js';
import {lockPrefix, readPrefix} from './npm-prefix.js';
import type {PackageScope} from './package-scope.js';
import {npmUninstall} from './run-npm.js';
import {isPackageName} from './settings-file.js';
import {readPackageEntries, removePackageEntries, type PackageEntry} from './settings-packages.js';

/** NAME is neither listed in the settings file nor installed in its prefix (exit 2); the message lists what is. */
export class UnknownPackageError extends UsageError {
	override name = 'UnknownPackageError';
}

export interface UninstalledPackage {
	name: string;
	/** The settings entries taken out (a bare name, or a path to a package folder, which is left as it is). */
	removedEntries: PackageEntry[];
	/** Whether npm removed it from the prefix (false: it was only listed). */
	removedFromPrefix: boolean;
}

/**
 * `i uninstall NAME`: npm removes the package from the scope's prefix, then
 * every entry naming it leaves the settings file (`packages` and
 * `extensions`): its bare name, or a path whose package is NAME (the folder
 * itself is never deleted). npm goes first, so a failing npm leaves the
 * settings as they were. A name that is neither listed nor installed is an
 * UnknownPackageError listing what is.
 */
export async function uninstallPackage(scope: PackageScope, name: string): Promise<UninstalledPackage> {
	const entries = await readPackageEntries(scope.settingsPath);
	const paths = new Set<string>();
	for (const {entry} of entries) if (!isPackageName(entry) && (entry === name || (await packageNameAt(scope, entry)) === name)) paths.add(entry);
	const listed = entries.some(({entry}) => entry === name || paths.has(entry));
	const {dependencies} = await readPrefix(scope.prefix);
	const installed = dependencies[name] !== undefined;
	if (!listed && !installed) {
		const known = await installedNames(scope, entries, dependencies);
		throw new UnknownPackageError(
			`no extension package "${name}" is listed in ${scope.settingsPath} or installed in ${scope.prefix}; ${known.length > 0 ? `installed there: ${known.join(', ')}` : 'nothing is installed there'}`,
		);
	}

	let removedFromPrefix = false;
	if (installed) {
		const lock = await lockPrefix(scope.prefix);
		try {
			await npmUninstall(scope.prefix, name);
			removedFromPrefix = true;
		} finally {
			lock.release();
		}
	}

	const removedEntries = listed ? await removePackageEntries(scope.settingsPath, ({entry}) => entry === name || paths.has(entry)) : [];
	return {name, removedEntries, removedFromPrefix};
}

/** The packages of a scope by name: listed in its settings or installed in its prefix, sorted. A broken settings file lists none. */
export async function listInstalled(scope: PackageScope): Promise<string[]> {
	try {
		return await installedNames(scope, await readPackageEntries(scope.settingsPath), (await readPrefix(scope.prefix)).dependencies);
	} catch {
		return [];
	}
}

async function installedNames(scope: PackageScope, entries: PackageEntry[], dependencies: Record<string, string>): Promise<string[]> {
	const names = new Set(Object.keys(dependencies));
	for (const {entry} of entries) names.add(isPackageName(entry) ? entry : ((await packageNameAt(scope, entry)) ?? entry));
	return [...names].sort();
}

/** The extension name of a path entry (its package.json name, or its file name), the way the loader names it; undefined when nothing loads from there. */
async function packageNameAt(scope: PackageScope, entry: string): Promise<string | undefined> {
	const path = isAbsolute(entry) ? entry : resolve(scope.folder, entry);
	if (!(await stat(path).catch(() => undefined))) return undefined;
	try {
		return (await resolveEntryPoint(path)).name;
	} catch {
		return undefined;
	}
}
