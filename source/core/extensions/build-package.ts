import {basename} from 'node:path';
import {errorMessage, UsageError} from '../errors.js';
import {BuildFailedError, runBuildScript} from './dev/build-script.js';
import {readPackageManifest} from './dev/package-manifest.js';

/** What `i install --build` says of a build that succeeded. */
export interface PackageBuild {
	name: string;
	folder: string;
	ms: number;
}

/**
 * `i install --build` (spec/extensions.md §1: installing from source):
 * the package's own `build` script, `npm run build` in its folder, within
 * the build bound of `i dev` (dev/build-script.ts), before anything is
 * installed. A folder without package.json or without a `build` script is
 * a usage error; a build that fails, or outlasts the bound, is an error
 * naming the package, the exit code and the tail of its output.
 */
export async function buildPackage(folder: string, onStart: (name: string) => void): Promise<PackageBuild> {
	const read = await readPackageManifest(folder);
	if (!read) throw new UsageError(`${folder} has no package.json, so there is no build script to run; --build builds an npm package folder`);
	const name = read.manifest.name ?? basename(folder);
	if (read.manifest.scripts?.build === undefined) {
		throw new UsageError(`${read.path} has no "build" script, so --build has nothing to run; leave --build out to install ${name} as it is`);
	}

	onStart(name);
	const start = performance.now();
	try {
		// Nothing stops it but its bound: the install waits for it.
		await runBuildScript(folder, new AbortController().signal, 'i install --build');
	} catch (error) {
		throw new BuildFailedError(`the build of ${name} failed, so nothing was installed: ${errorMessage(error)}`);
	}

	return {name, folder, ms: Math.round(performance.now() - start)};
}
