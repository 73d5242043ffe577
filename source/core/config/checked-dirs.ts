import {resolve} from 'node:path';
import {UsageError, errorMessage} from '../errors.js';
import {dirEnvironmentVariables, resolveDirs, type PlatformDirs} from './dirs.js';
import {validatePaths} from './request-context.js';

/**
 * The four folders as every request frame must carry them (spec/platform.md §3):
 * absolute (a relative I_*_DIR resolves against the current folder), no
 * `..`, config and data never under cache or runtime. A violation is a
 * configuration error naming the variable, not a worker's failure later.
 */
export function checkedDirs(env: NodeJS.ProcessEnv = process.env): PlatformDirs {
	const dirs = resolveDirs(env);
	try {
		return validatePaths(Object.fromEntries(Object.entries(dirs).map(([key, path]) => [key, resolve(path)])), key => dirEnvironmentVariables[key]);
	} catch (error) {
		throw new UsageError(errorMessage(error));
	}
}
