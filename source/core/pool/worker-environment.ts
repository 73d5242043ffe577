import {dirEnvironmentVariables, type PlatformDirs} from '../config/dirs.js';

/** Passed through from the core's environment when set there (spec/platform.md §2); everything else is dropped. */
const INHERITED = ['PATH', 'SystemRoot', 'TEMP', 'TMP', 'HOME', 'USERPROFILE'] as const;

/**
 * A worker's whole environment (spec/platform.md §2): PATH, PYTHONUTF8=1, the system
 * folders that exist in `parent`, and the four I_*_DIR set to the folders the
 * core resolved, so workers and core agree even where the core fell back to
 * defaults. No API key, credential or I_APPROVAL_TOKEN ever gets through:
 * nothing is copied unless named here.
 */
export function workerEnvironment(parent: NodeJS.ProcessEnv, dirs: PlatformDirs): Record<string, string> {
	const env = inheritedEnvironment(parent);
	env.PYTHONUTF8 = '1';
	for (const key of Object.keys(dirEnvironmentVariables) as (keyof PlatformDirs)[]) env[dirEnvironmentVariables[key]] = dirs[key];
	return env;
}

/** The system part of a worker's environment: PATH and the system folders that exist in `parent`, nothing else. */
export function inheritedEnvironment(parent: NodeJS.ProcessEnv): Record<string, string> {
	const env: Record<string, string> = {};
	for (const name of INHERITED) {
		const value = lookup(parent, name);
		if (value !== undefined) env[name] = value;
	}

	return env;
}

/** Windows names are case-insensitive (`Path`); process.env knows that, a copy of it does not. */
function lookup(parent: NodeJS.ProcessEnv, name: string): string | undefined {
	if (parent[name] !== undefined || process.platform !== 'win32') return parent[name];
	const key = Object.keys(parent).find(candidate => candidate.toUpperCase() === name.toUpperCase());
	return key === undefined ? undefined : parent[key];
}
