import {createRequire} from 'node:module';
import {join, relative} from 'node:path';
import {pathToFileURL} from 'node:url';
import {BuildFailedError} from './build-script.js';
import {outputTail} from '../run-npm.js';
import {importUrl} from '../../import-url.js';

/** The part of esbuild's API the bundle uses (esbuild is loaded from a path at run time, never bundled into i). */
interface Esbuild {
	build(options: Record<string, unknown>): Promise<unknown>;
	formatMessages?(messages: unknown[], options: {kind: 'error'; color: boolean}): Promise<string[]>;
}

export interface BundleOptions {
	/** The package folder: where esbuild is looked for first, and what messages are relative to. */
	folder: string;
	/** The entry file, absolute. */
	entry: string;
	/** Where the bundle goes, absolute. */
	outfile: string;
}

/**
 * Bundles a package's entry (TypeScript or JavaScript) into one ES module
 * for Node 20: its own files inlined, so each build is a fresh module, and
 * its dependencies left as imports, resolved from the node_modules linked
 * beside the staged copy, as they would be for the published package. A
 * source map beside it points a debugger at the real sources.
 */
export async function bundleEntry(options: BundleOptions): Promise<void> {
	const esbuild = await loadEsbuild(options.folder);
	try {
		await esbuild.build({
			absWorkingDir: options.folder,
			entryPoints: [options.entry],
			outfile: options.outfile,
			bundle: true,
			format: 'esm',
			platform: 'node',
			target: 'node20',
			packages: 'external',
			sourcemap: 'linked',
			logLevel: 'silent',
		});
	} catch (error) {
		throw new BuildFailedError(`esbuild could not bundle ${relative(options.folder, options.entry)} in ${options.folder}:\n${await describeFailure(esbuild, error)}`);
	}
}

/** esbuild's own lines for each error (file, line, the code and a caret), the last of them when there are many. */
async function describeFailure(esbuild: Esbuild, error: unknown): Promise<string> {
	const errors = (error as {errors?: unknown}).errors;
	if (Array.isArray(errors) && errors.length > 0 && esbuild.formatMessages) {
		const formatted = await esbuild.formatMessages(errors, {kind: 'error', color: false}).catch(() => undefined);
		if (formatted) return outputTail(formatted.join(''));
	}

	return outputTail(error instanceof Error ? error.message : String(error));
}

/** Where esbuild was found, so each build after the first imports nothing. */
const loaded = new Map<string, Promise<Esbuild>>();

/**
 * esbuild from the package's own dependencies (the version it asks for),
 * else from i's installation; neither is an error saying how to fix it.
 */
async function loadEsbuild(folder: string): Promise<Esbuild> {
	let path: string | undefined;
	for (const from of [join(folder, 'package.json'), import.meta.url]) {
		try {
			path = createRequire(from).resolve('esbuild');
			break;
		} catch {
			// Not there: the next place.
		}
	}

	if (path === undefined) {
		throw new BuildFailedError(
			`${folder} has no "build" script, so i dev bundles its entry with esbuild, which is installed neither in the package nor beside i; install it there (npm install --save-dev esbuild) or add a "build" script to its package.json`,
		);
	}

	let loading = loaded.get(path);
	if (!loading) {
		loading = importEsbuild(path);
		loaded.set(path, loading);
		loading.catch(() => loaded.delete(path));
	}

	return loading;
}

async function importEsbuild(path: string): Promise<Esbuild> {
	const module = (await importUrl(pathToFileURL(path).href)) as {default?: unknown; build?: unknown};
	const api = (typeof module.build === 'function' ? module : module.default) as Partial<Esbuild> | undefined;
	if (typeof api?.build !== 'function') throw new BuildFailedError(`${path} is no esbuild: it exports no build function`);
	return api as Esbuild;
}
