import {realpathSync} from 'node:fs';
import {basename, dirname, isAbsolute, join, normalize, sep} from 'node:path';
import * as z from 'zod/mini';
import type {RequestContext} from '../pool/types.js';
import {resourceFoldersSchema} from '../resources/resource-folders.js';
import type {PlatformDirs} from './dirs.js';
import {describeIssues} from './describe-issues.js';

/** The platform context a request may carry (spec/platform.md §3); each part is optional, a worker falls back for what is missing. */
export type RequestContextFields = Partial<RequestContext>;

/** A request's platform context broke a rule; the message names the field and the rule. */
export class RequestContextError extends Error {
	override name = 'RequestContextError';
}

const dirKeys = ['config_dir', 'data_dir', 'cache_dir', 'runtime_dir'] as const;
/** Durable folders that must not live inside disposable ones. */
const durableKeys = ['config_dir', 'data_dir'] as const;
const disposableKeys = ['cache_dir', 'runtime_dir'] as const;

const uuidSchema = z.uuid();

/**
 * Checks the optional top-level `workspace`, `workspace_id`, `paths` and
 * `resources` of a request frame: the workspace absolute, the ID a UUID, the
 * four folders all present, absolute and free of `..`, config/data not
 * inside cache/runtime (compared both as written and through the symlinks
 * that resolve now), and the skill and prompt folders absolute and bounded.
 */
export function validateRequestContext(frame: Record<string, unknown>): RequestContextFields {
	const context: RequestContextFields = {};
	if (frame.workspace !== undefined) {
		if (typeof frame.workspace !== 'string' || !isAbsolute(frame.workspace)) {
			throw new RequestContextError(`field "workspace" must be an absolute path (got ${JSON.stringify(frame.workspace)})`);
		}

		context.workspace = frame.workspace;
	}

	if (frame.workspace_id !== undefined) {
		if (!uuidSchema.safeParse(frame.workspace_id).success) {
			throw new RequestContextError(`field "workspace_id" must be a UUID (got ${JSON.stringify(frame.workspace_id)})`);
		}

		context.workspace_id = frame.workspace_id as string;
	}

	if (frame.paths !== undefined) context.paths = validatePaths(frame.paths);
	if (frame.resources !== undefined) {
		const parsed = resourceFoldersSchema.safeParse(frame.resources);
		if (!parsed.success) throw new RequestContextError(`field "resources": ${describeIssues(parsed.error.issues, frame.resources)}`);
		context.resources = parsed.data;
	}

	return context;
}

/**
 * The four platform folders under the rules of spec/platform.md §3. `label` names a
 * folder in messages: `field "paths.config_dir"` for a frame by default.
 */
export function validatePaths(value: unknown, label: (key: keyof PlatformDirs) => string = key => `field "paths.${key}"`): PlatformDirs {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) {
		throw new RequestContextError(`field "paths" must be an object with ${dirKeys.join(', ')}`);
	}

	const record = value as Record<string, unknown>;
	const unknown = Object.keys(record).filter(key => !(dirKeys as readonly string[]).includes(key));
	if (unknown.length > 0) throw new RequestContextError(`field "paths": unknown field "${unknown[0]}"; only ${dirKeys.join(', ')} are allowed`);
	const dirs = {} as PlatformDirs;
	for (const key of dirKeys) {
		const path = record[key];
		if (path === undefined) throw new RequestContextError(`${label(key)} is missing: all of ${dirKeys.join(', ')} are required`);
		if (typeof path !== 'string' || !isAbsolute(path)) throw new RequestContextError(`${label(key)} must be an absolute path (got ${JSON.stringify(path)})`);
		if (path.split(/[\\/]/).includes('..')) throw new RequestContextError(`${label(key)} may not contain a ".." segment (got ${JSON.stringify(path)})`);
		dirs[key] = path;
	}

	// Each folder resolved once (every frame carries its paths): a missing one walks up to an existing ancestor.
	const resolved = Object.fromEntries(dirKeys.map(key => [key, aliases(dirs[key])])) as Record<keyof PlatformDirs, string[]>;
	for (const durable of durableKeys) {
		for (const disposable of disposableKeys) {
			if (resolved[durable].some(inner => resolved[disposable].some(outer => isInside(inner, outer)))) {
				throw new RequestContextError(`${label(durable)} (${dirs[durable]}) may not be inside ${label(disposable)} (${dirs[disposable]}): what is there may be deleted`);
			}
		}
	}

	return dirs;
}

/** The path as written and as it resolves now: the deepest existing ancestor's real path plus the rest. */
function aliases(path: string): string[] {
	const written = normalize(path);
	const resolved = resolveExisting(written);
	return resolved === written ? [written] : [written, resolved];
}

function resolveExisting(path: string): string {
	const rest: string[] = [];
	for (let current = path; ; current = dirname(current)) {
		try {
			return join(realpathSync.native(current), ...rest.reverse());
		} catch {
			// Missing (or unreadable) here: keep the name and try the parent.
			if (dirname(current) === current) return path;
			rest.push(basename(current));
		}
	}
}

function isInside(inner: string, outer: string): boolean {
	const base = outer.endsWith(sep) ? outer : outer + sep;
	return inner === outer || inner.startsWith(base);
}
