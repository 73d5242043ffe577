import {realpath} from 'node:fs/promises';
import {gitignoreFilter} from '../tools/gitignore-filter.js';
import {describeWalkLimit, walkFiles} from '../tools/walk.js';

export interface WorkspaceEntries {
	/** Folders, then files, relative to the workspace and `/`-separated. */
	entries: Array<{path: string; directory: boolean}>;
	/** Why the list is not the whole workspace (a walk limit), or null. */
	limit: string | null;
}

/**
 * What the chat screen's @ picker offers: the workspace's files and folders
 * as the glob tool walks them (walk.ts: the same limits, hidden names,
 * dependency folders and symlinks skipped), less what `.gitignore` ignores.
 * One walk, which yields to the event loop as it goes.
 */
export async function workspaceEntries(workspace: string, signal: AbortSignal): Promise<WorkspaceEntries> {
	const root = await realpath(workspace);
	const walk = await walkFiles(root, signal, {skip: gitignoreFilter(root)});
	return {
		entries: [...walk.directories.map(path => ({path, directory: true})), ...walk.files.map(file => ({path: file.relative, directory: false}))],
		limit: describeWalkLimit(walk.stoppedBy),
	};
}
