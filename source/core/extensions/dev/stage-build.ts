import {readdir, writeFile} from 'node:fs/promises';
import {extname, isAbsolute, join, relative, sep} from 'node:path';
import {errorMessage} from '../../errors.js';
import {packageEntry, resolveEntryPoint} from '../entry-point.js';
import {BuildFailedError, runBuildScript} from './build-script.js';
import {copyBuild} from './copy-build.js';
import type {DevPackage} from './dev-package.js';
import {bundleEntry} from './esbuild-bundle.js';
import {linkDependencies} from './link-dependencies.js';
import {readPackageManifest, type PackageManifest} from './package-manifest.js';
import type {StagingArea} from './staging-area.js';

/** Glob characters in a package.json "files" entry: the copy takes the folder before the first of them. */
const globCharacters = /[*?[\]{}()!]/;

/**
 * Builds the package and stages the result as a new copy, which it returns
 * once the loader's own check accepts it (resolveEntryPoint: built
 * JavaScript that exists). With a `build` script npm runs it in the package
 * folder and the copy takes package.json, the build's output and whatever
 * "files" lists; without one esbuild bundles the entry straight into the
 * copy. Either way the copy's node_modules links to the package's. A
 * failure is a BuildFailedError, and its half-made copy is removed.
 */
export async function buildAndStage(pkg: DevPackage, staging: StagingArea, signal: AbortSignal): Promise<string> {
	if (pkg.build.kind === 'script') await runBuildScript(pkg.folder, signal);
	if (signal.aborted) throw new BuildFailedError('the build was stopped');
	const read = await readPackageManifest(pkg.folder).catch((error: unknown) => {
		throw new BuildFailedError(errorMessage(error));
	});
	if (!read) throw new BuildFailedError(`${join(pkg.folder, 'package.json')} is gone`);
	const copy = await staging.allocate(pkg.name);
	try {
		const files = await listedFiles(pkg.folder, read.manifest);
		if (pkg.build.kind === 'script') {
			await copyBuild(pkg.folder, copy, ['package.json', ...files, ...(await outputPaths(pkg.folder, read.manifest))], `the build of ${pkg.name}`);
		} else {
			// The bundle sits where the entry is, as `.mjs` (an ES module whatever the package's "type"), so paths relative to it stay right.
			const bundle = relative(pkg.folder, pkg.build.entry).slice(0, -extname(pkg.build.entry).length) + '.mjs';
			await copyBuild(pkg.folder, copy, files, `the build of ${pkg.name}`);
			// Its entry is the bundle now: `main` names it, and an `exports` naming the source would win over it.
			const manifest = Object.fromEntries(Object.entries(read.data).filter(([key]) => key !== 'exports'));
			await writeFile(join(copy, 'package.json'), `${JSON.stringify({...manifest, main: `./${bundle.split(sep).join('/')}`}, null, 2)}\n`);
			await bundleEntry({folder: pkg.folder, entry: pkg.build.entry, outfile: join(copy, bundle)});
		}

		await linkDependencies(pkg.folder, copy);
		await resolveEntryPoint(copy).catch((error: unknown) => {
			throw new BuildFailedError(`the build of ${pkg.name} finished, but its staged copy ${copy} does not load: ${errorMessage(error)}`);
		});
		return copy;
	} catch (error) {
		await staging.discard(copy);
		throw error;
	}
}

/**
 * What a build script's output is, by the package's entry: the top folder
 * it is in (`dist` for `dist/index.js`); for an entry at the package's top
 * (or none: `index.js`), every top-level entry but node_modules and hidden
 * ones, as npm packs a package without "files".
 */
export async function outputPaths(folder: string, manifest: PackageManifest): Promise<string[]> {
	const top = entryTopFolder(manifest);
	return top === undefined ? topLevel(folder) : [top];
}

/** The package's top-level entries but node_modules and hidden ones (`.git`, `.i`, where the copies are). */
async function topLevel(folder: string): Promise<string[]> {
	return (await readdir(folder)).filter(name => !name.startsWith('.') && name !== 'node_modules');
}

/** package.json "files", each as the path before its first glob character; one that is all glob (`*.js`) stands for the whole top level. */
async function listedFiles(folder: string, manifest: PackageManifest): Promise<string[]> {
	const paths = (manifest.files ?? []).map(fixedPart).filter(path => !path.startsWith('..') && !isAbsolute(path));
	return paths.includes('') ? [...paths.filter(path => path !== ''), ...(await topLevel(folder))] : paths;
}

/** The top folder of the package's entry (`dist` for `./dist/index.js`), or undefined when the entry is at the top or not named. */
export function entryTopFolder(manifest: PackageManifest): string | undefined {
	const target = packageEntry(manifest.exports) ?? manifest.main;
	if (target === undefined) return undefined;
	const segments = target
		.replaceAll('\\', '/')
		.split('/')
		.filter(segment => segment !== '' && segment !== '.');
	return segments.length > 1 && segments[0] !== '..' ? segments[0] : undefined;
}

/** `dist/**\/*.js` → `dist`: a "files" entry's part before any glob character. */
function fixedPart(entry: string): string {
	const segments: string[] = [];
	for (const segment of entry.replaceAll('\\', '/').split('/')) {
		if (globCharacters.test(segment)) break;
		if (segment !== '' && segment !== '.') segments.push(segment);
	}

	return segments.join('/');
}
