import {realpath} from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod/mini';
import {clipLine} from './format.js';
import type {ApprovalAsk} from './types.js';

export interface ResolvedPath {
	/** The path as the model named it, made absolute against the workspace. */
	absolute: string;
	/** Symlinks resolved; for a path that does not exist yet, its deepest existing ancestor's real path plus the rest. */
	canonical: string;
	/** Decided on the canonical path, so a symlink pointing out of the workspace counts as outside. */
	inside: boolean;
	/** How results name it: workspace-relative when the path as named is in the workspace, absolute otherwise. */
	display: string;
}

/** A path argument: relative to the workspace or absolute. */
export function pathArgument(description: string) {
	return z.string().check(
		z.minLength(1),
		z.refine(value => !value.includes('\0'), {message: 'must not contain a NUL character'}),
		z.describe(description),
	);
}

export async function resolvePath(workspace: string, input: string): Promise<ResolvedPath> {
	const root = await canonicalPath(workspace);
	const absolute = path.resolve(root, input);
	const canonical = await canonicalPath(absolute);
	const inside = isInside(root, canonical);
	// Named as the model named it: a symlink in the workspace keeps its workspace-relative name even when it points out.
	const display = isInside(root, absolute) ? path.relative(root, absolute) || '.' : absolute;
	return {absolute, canonical, inside, display};
}

/** The real path of `absolute`, or of its deepest existing ancestor joined with the missing rest. */
async function canonicalPath(absolute: string): Promise<string> {
	const missing: string[] = [];
	let current = absolute;
	for (;;) {
		try {
			return path.join(await realpath(current), ...missing);
		} catch {
			const parent = path.dirname(current);
			if (parent === current) {
				return absolute;
			}

			missing.unshift(path.basename(current));
			current = parent;
		}
	}
}

/** Whether `candidate` is `root` or inside it (both absolute). */
export function isInside(root: string, candidate: string): boolean {
	const relative = path.relative(root, candidate);
	return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/**
 * The approval a normally free tool needs when it reaches outside the
 * workspace, or null when every target is inside.
 */
export function outsideWorkspaceAsk(verb: string, targets: readonly ResolvedPath[]): ApprovalAsk | null {
	const outside = targets.filter(target => !target.inside);
	if (outside.length === 0) {
		return null;
	}

	const title = clipLine(`${verb} outside the workspace: ${outside.map(target => target.canonical).join(', ')}`, 120);
	const lines = outside.map(target => (target.canonical === target.absolute ? target.absolute : `${target.absolute} → ${target.canonical}`));
	return {title, detail: lines.join('\n')};
}
