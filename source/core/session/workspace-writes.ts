import {join} from 'node:path';
import type {PlatformDirs} from '../config/dirs.js';
import {removeWriteDebris, WriteJournal} from '../fs/write-journal.js';

/** The journal's folder in the workspace state folder (`<data_dir>/workspaces/<id>/writes`). */
const WRITES_FOLDER = 'writes';

/** The journal of the workspace's unfinished writes (write-journal.ts), found at the first write. */
export function workspaceWriteJournal(workspace: string, dirs: PlatformDirs, warn: (message: string) => void): WriteJournal {
	const folder = async () => {
		const {workspaceId, workspaceStateDir} = await import('../config/workspace-registry.js');
		return join(workspaceStateDir(dirs, await workspaceId(workspace, dirs)), WRITES_FOLDER);
	};
	return new WriteJournal({folder, warn});
}

/**
 * At a start in `workspace`: removes the temp files that writers killed
 * mid-write left there, as its journal names them, so the workspace is
 * never walked. A workspace never registered has written nothing; one that
 * cannot be looked up is left for the next start (the start reports its
 * registry's problem where it reads it). Never rejects.
 */
export async function removeWorkspaceDebris(workspace: string, dirs: PlatformDirs): Promise<string[]> {
	let folder: string;
	try {
		const {findWorkspaceId, workspaceStateDir} = await import('../config/workspace-registry.js');
		const id = await findWorkspaceId(workspace, dirs);
		if (id === undefined) return [];
		folder = join(workspaceStateDir(dirs, id), WRITES_FOLDER);
	} catch {
		return [];
	}

	return removeWriteDebris(folder);
}
