import {mkdir, readFile, rm, rmdir} from 'node:fs/promises';
import {dirname, join, relative, sep} from 'node:path';
import {UsageError, errorMessage} from '../errors.js';
import {checkExtensionPackage} from './check-package.js';
import {resolveEntryPoint} from './entry-point.js';
import {lockPrefix, readPrefix, restorePrefixFiles, type PrefixState} from './npm-prefix.js';
import type {PackageScope} from './package-scope.js';
import {readPackageSpec, registryName, type PackageSpec} from './package-spec.js';
import {npmInstall, npmUninstall} from './run-npm.js';
import {installedPackagePath, isPackageName, readSettingsJson} from './settings-file.js';
import {addPackageName} from './settings-packages.js';

/** The spec names no package that loads as an extension: nothing was installed or listed (exit 2). */
export class NotAnExtensionError extends UsageError {
	override name = 'NotAnExtensionError';
}

export interface InstallOptions {
	scope: PackageScope;
	/** As the person wrote it. */
	spec: string;
	/** Where a relative path in `spec` is. */
	cwd: string;
	/** Whether the installed module may be imported to check its `register` (not in an untrusted workspace). */
	runCode: boolean;
	/** npm's warnings, passed on as they come. */
	warn(text: string): void;
}

export interface InstalledPackage {
	name: string;
	version: string | null;
	/** What npm was given: a local path made absolute, anything else as written. */
	spec: string;
	/** A folder is linked into the prefix (its edits show at the next start), anything else copied. */
	linked: boolean;
	/** The package folder in the prefix. */
	path: string;
	/** The module a run loads. */
	entry: string;
	/** Whether it was added to the settings' `packages` now (false: it was listed already). */
	added: boolean;
	/** Whether it was in the prefix before (an update). */
	updated: boolean;
	/** Whether its module was imported and checked; false when its code may not run. */
	imported: boolean;
}

/**
 * `i install SPEC`: the settings file is checked first (a broken one stops
 * everything), then npm installs SPEC into the scope's prefix, the package's
 * name is read from what npm recorded, the package is checked to load as an
 * extension, and only then is its name listed in the settings file, once.
 * A package that fails the check, or any failure after npm ran, is undone:
 * the prefix is put back as it was (the package removed, or its earlier
 * version restored) and the settings file is not touched. One install or
 * uninstall runs per prefix at a time (`<prefix>.lock`).
 */
export async function installPackage(options: InstallOptions): Promise<InstalledPackage> {
	const {scope} = options;
	const spec = await readPackageSpec(options.spec, options.cwd);
	await readSettingsJson(scope.settingsPath);
	// A folder is checked before npm runs: nothing is installed for one that is no extension.
	const folderName = spec.kind === 'folder' ? await checkFolder(spec.path) : undefined;
	// The first folder this install made (`.i`, or the prefix): an install that is undone leaves none of them behind.
	const created = await mkdir(scope.prefix, {recursive: true});
	const lock = await lockPrefix(scope.prefix);
	try {
		const before = await readPrefix(scope.prefix);
		const npmSpec = spec.kind === 'npm' ? spec.given : spec.path;
		const run = await npmInstall(scope.prefix, npmSpec).catch(async (error: unknown) => {
			// npm undoes its own failed install; a prefix made for it goes too.
			if (created !== undefined) await rm(scope.prefix, {recursive: true, force: true});
			throw error;
		});
		if (run.warnings.trim() !== '') options.warn(run.warnings);
		try {
			const after = await readPrefix(scope.prefix);
			const name = folderName ?? installedName(spec, before.dependencies, after.dependencies, scope.prefix);
			if (!isPackageName(name)) throw new NotAnExtensionError(`${options.spec} installed a package named "${name}", which a settings file cannot list by name`);
			const path = installedPackagePath(scope.folder, name);
			let check;
			try {
				check = await checkExtensionPackage(path, options.runCode);
			} catch (error) {
				throw new NotAnExtensionError(`${options.spec} (the package ${name}) is not an extension i can load: ${errorMessage(error)}; nothing was installed`);
			}

			const added = await addPackageName(scope.settingsPath, name);
			return {
				name,
				version: await packageVersion(path),
				spec: npmSpec,
				linked: spec.kind === 'folder',
				path,
				entry: check.entry.file,
				added,
				updated: before.dependencies[name] !== undefined,
				imported: check.imported,
			};
		} catch (error) {
			throw await undone(error, async () => undo(scope.prefix, created, before));
		}
	} finally {
		lock.release();
		if (created !== undefined && created !== scope.prefix) await removeEmptyFolders(scope.folder, created);
	}
}

/** The folders from `folder` up to `top` that this install made and left empty (the lock was the last thing in them). */
async function removeEmptyFolders(folder: string, top: string): Promise<void> {
	for (let dir = folder; dir.length >= top.length && dir.startsWith(top); dir = dirname(dir)) {
		try {
			await rmdir(dir);
		} catch {
			return;
		}
	}
}

/** A folder to install must be an npm package (npm needs its package.json and name) whose entry point the loader finds. */
async function checkFolder(path: string): Promise<string> {
	const manifestPath = join(path, 'package.json');
	const manifest = await readFile(manifestPath, 'utf8').catch(() => undefined);
	if (manifest === undefined) {
		throw new NotAnExtensionError(`${path} has no package.json, so npm cannot install it; to load a plain folder, list its path in settings.json "packages" or pass --extension ${path}`);
	}

	let name: unknown;
	try {
		name = (JSON.parse(manifest) as {name?: unknown}).name;
	} catch (error) {
		throw new NotAnExtensionError(`${manifestPath}: not valid JSON (${(error as Error).message})`);
	}

	if (typeof name !== 'string' || name === '') throw new NotAnExtensionError(`${manifestPath} has no "name"; npm installs a package by its name`);
	try {
		await resolveEntryPoint(path);
	} catch (error) {
		throw new NotAnExtensionError(`${path} is not an extension i can load: ${errorMessage(error)}; nothing was installed`);
	}

	return name;
}

/**
 * The name npm installed `spec` under: the one dependency the install added
 * or changed; after an install that changed nothing (the same spec again),
 * the dependency npm records for that spec (`file:<path from the prefix>`
 * for a tarball, the spec itself, or the registry name it starts with).
 */
function installedName(spec: PackageSpec, before: Record<string, string>, after: Record<string, string>, prefix: string): string {
	const changed = Object.keys(after).filter(name => after[name] !== before[name]);
	if (changed.length === 1) return changed[0]!;
	if (changed.length === 0) {
		const recorded = spec.kind === 'npm' ? spec.given : `file:${relative(prefix, spec.path).split(sep).join('/')}`;
		const same = Object.keys(after).filter(name => after[name] === recorded);
		if (same.length === 1) return same[0]!;
		const named = spec.kind === 'npm' ? registryName(spec.given) : undefined;
		if (named !== undefined && after[named] !== undefined) return named;
	}

	throw new Error(`npm installed ${spec.given}, but its list of packages in ${prefix} does not say under which name${changed.length > 1 ? ` (${changed.join(', ')} changed)` : ''}`);
}

/**
 * Puts the prefix back as it was before: a prefix this install made is
 * removed; packages it added are uninstalled; otherwise (an update) the
 * manifest and lock file read before are restored and npm makes the prefix
 * match them again.
 */
async function undo(prefix: string, created: string | undefined, before: PrefixState): Promise<void> {
	if (created !== undefined) {
		await rm(prefix, {recursive: true, force: true});
		return;
	}

	const after = (await readPrefix(prefix)).dependencies;
	const changed = Object.keys(after).filter(name => after[name] !== before.dependencies[name]);
	if (changed.length > 0 && changed.every(name => before.dependencies[name] === undefined)) {
		for (const name of changed) await npmUninstall(prefix, name);
		return;
	}

	await restorePrefixFiles(prefix, before);
	await npmInstall(prefix);
}

/** The error to throw after undoing: the original, or, when undoing failed too, one that says so and what may be left. */
async function undone(error: unknown, undo: () => Promise<void>): Promise<unknown> {
	try {
		await undo();
		return error;
	} catch (undoError) {
		const Kind = error instanceof UsageError ? UsageError : Error;
		return new Kind(`${errorMessage(error)}; putting the npm prefix back as it was failed too (${errorMessage(undoError)}), so it may still hold the package`);
	}
}

async function packageVersion(path: string): Promise<string | null> {
	try {
		const {version} = JSON.parse(await readFile(join(path, 'package.json'), 'utf8')) as {version?: unknown};
		return typeof version === 'string' ? version : null;
	} catch {
		return null;
	}
}
