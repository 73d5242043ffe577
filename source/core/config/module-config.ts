import {dirname, join, resolve} from 'node:path';
import type * as z from 'zod/mini';
import '../zod-english.js';
import {UsageError} from '../errors.js';
import {readConfigFileSync} from '../fs/read-config-file.js';
import {describeIssues} from './describe-issues.js';
import type {PlatformDirs} from './dirs.js';

/** A module config is a small hand-written file; anything bigger is a mistake. */
export const MAX_MODULE_CONFIG_BYTES = 1024 * 1024;

export interface ModuleConfig<T> {
	/** The file that was (or would have been) read. */
	path: string;
	/** False when the default file does not exist and the module's defaults apply. */
	found: boolean;
	config: T;
}

/**
 * spec/platform.md §4: an explicit `--config FILE` (against the worker's cwd), else
 * `<config_dir>/<module>.json`.
 */
export function moduleConfigPath(module: string, explicit: string | undefined, dirs: PlatformDirs, cwd: string = process.cwd()): string {
	return explicit === undefined ? join(dirs.config_dir, `${module}.json`) : resolve(cwd, explicit);
}

/**
 * A file a module config names, resolved against that config's folder: the
 * rule of most modules (spec/platform.md §4; cache `stats` is the exception, resolved
 * against the workspace state folder by its own module).
 */
export function resolveFromConfig(configPath: string, file: string): string {
	return resolve(dirname(configPath), file);
}

/**
 * Reads and strictly validates a module's config. A missing default file
 * means the module's defaults (the schema applied to `{}`); a missing
 * explicit file is an error. Every error names the file and the field.
 */
export async function loadModuleConfig<T>(module: string, schema: z.ZodMiniType<T>, options: {explicit?: string; dirs: PlatformDirs; cwd?: string}): Promise<ModuleConfig<T>> {
	const path = moduleConfigPath(module, options.explicit, options.dirs, options.cwd);
	// Synchronous inside, like the state files: a module config is small (capped) and read once per host and
	// module, mostly to find it missing, and a call through the thread pool costs more than the reading
	// (the shared reader never waits on a FIFO).
	const bytes = readConfigFileSync(path, {label: `${module} config ${path}`, maxBytes: MAX_MODULE_CONFIG_BYTES, tooBig: 'too big for a config file'});
	const text = bytes?.toString('utf8');
	if (text === undefined && options.explicit !== undefined) throw new UsageError(`${module} config ${path} does not exist (named by --config)`);
	let json: unknown = {};
	if (text !== undefined) {
		try {
			json = JSON.parse(text);
		} catch (error) {
			throw new UsageError(`${module} config ${path}: not valid JSON (${(error as Error).message})`);
		}
	}

	const parsed = schema.safeParse(json);
	if (!parsed.success) {
		const where = text === undefined ? ` does not exist and the ${module} module has no default for it` : '';
		throw new UsageError(`${module} config ${path}${where}: ${describeIssues(parsed.error.issues, json)}`);
	}

	return {path, found: text !== undefined, config: parsed.data};
}
