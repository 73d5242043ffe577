import {isAbsolute, join} from 'node:path';
import * as z from 'zod/mini';
import '../../source/core/zod-english.js';
import type {PlatformDirs} from '../../source/core/config/dirs.js';
import {workspaceStateDir} from '../../source/core/config/workspace-registry.js';

export const DEFAULT_STATS = 'metrics/cache-stats.json';
export const DEFAULT_TARGET_HIT_RATIO = 0.99;

/** spec/platform.md §8: relative to the workspace state folder, never absolute (any platform's form) and never climbing out with `..`. */
function statsPathProblem(path: string): string | undefined {
	if (isAbsolute(path) || /^[\\/]/.test(path) || /^[A-Za-z]:/.test(path)) return 'must be a path relative to the workspace state folder, not an absolute path';
	if (path.split(/[\\/]/).includes('..')) return 'may not contain a ".." segment: it must stay inside the workspace state folder';
	return undefined;
}

/** `cache.json` (spec/platform.md §8). */
export const cacheConfigSchema = z
	.strictObject({
		/** observe: adds nothing to requests; openai: prompt_cache_key; anthropic: top-level cache_control. */
		mode: z._default(z.enum(['observe', 'openai', 'anthropic']), 'observe'),
		enabled: z._default(z.boolean(), true),
		/** Mixed into the cache key, so workloads that must not share a provider cache get different keys. */
		namespace: z.optional(z.string().check(z.minLength(1))),
		stats: z._default(
			z.string().check(
				z.minLength(1),
				z.superRefine((path, context) => {
					const problem = statsPathProblem(path);
					if (problem) context.issues.push({code: 'custom', message: problem, input: path});
				}),
			),
			DEFAULT_STATS,
		),
		target_hit_ratio: z._default(z.number().check(z.gte(0), z.lte(1)), DEFAULT_TARGET_HIT_RATIO),
		/** openai only: prompt_cache_retention. */
		retention: z.optional(z.enum(['in_memory', '24h'])),
		/** anthropic only: cache_control.ttl. */
		ttl: z.optional(z.enum(['5m', '1h'])),
	})
	.check(
		z.superRefine((config, context) => {
			if (config.retention !== undefined && config.mode !== 'openai') {
				context.issues.push({code: 'custom', path: ['retention'], message: `applies only to mode "openai" (mode is "${config.mode}")`, input: config.retention});
			}

			if (config.ttl !== undefined && config.mode !== 'anthropic') {
				context.issues.push({code: 'custom', path: ['ttl'], message: `applies only to mode "anthropic" (mode is "${config.mode}")`, input: config.ttl});
			}
		}),
	);

export type CacheConfig = z.infer<typeof cacheConfigSchema>;

/** The stats file of a workspace: `stats` under its state folder. */
export function statsPath(dirs: PlatformDirs, workspaceId: string, stats: string): string {
	return join(workspaceStateDir(dirs, workspaceId), stats);
}
