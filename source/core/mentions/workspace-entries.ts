import {realpath} from 'node:fs/promises';
import {gitignoreFilter} from '../tools/gitignore-filter.js';
import {MAX_WALK_ENTRIES, MAX_WALK_FILES, walkFiles} from '../tools/walk.js';

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
		limit:
			walk.stoppedBy === null
				? null
				: `only the first ${walk.stoppedBy === 'files' ? `${MAX_WALK_FILES} files` : `${MAX_WALK_ENTRIES} folder entries`} are listed, shallowest first (the glob tool's limit); a deeper file can still be typed as @path`,
	};
}
