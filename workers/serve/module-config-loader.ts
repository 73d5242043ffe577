import type * as z from 'zod/mini';
import {loadModuleConfig, moduleConfigPath, type ModuleConfig} from '../../source/core/config/module-config.js';
import type {WorkerContext} from './serve.js';

/**
 * A module's config for a request's folders (spec/platform.md §4): `--config FILE` if
 * given, else `<config_dir>/<module>.json` of the request's `paths`. Each file
 * is read once, since a host's folders are fixed for a worker's life; a
 * failure is not remembered, so a fixed file is read on the next request.
 */
export function moduleConfigLoader<T>(module: string, schema: z.ZodMiniType<T>, explicit: string | undefined): (context: WorkerContext) => Promise<ModuleConfig<T>> {
	// An explicit path resolves against the cwd the worker started in.
	const cwd = process.cwd();
	const loaded = new Map<string, Promise<ModuleConfig<T>>>();
	return async context => {
		const path = moduleConfigPath(module, explicit, context.paths, cwd);
		let config = loaded.get(path);
		if (!config) {
			config = loadModuleConfig(module, schema, {explicit, dirs: context.paths, cwd});
			loaded.set(path, config);
			config.catch(() => loaded.delete(path));
		}

		return config;
	};
}
