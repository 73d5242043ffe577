import {join} from 'node:path';
import type {PlatformDirs} from '../config/dirs.js';
import {FileHistory} from './file-history.js';
import {workspaceWriteJournal} from '../session/workspace-writes.js';

/**
 * A workspace's file history, in its state folder (`<data_dir>/workspaces/<id>/rewind`), never in the project; the folder is found when it is first used.
 * Its writes are noted in the workspace's write journal (workspace-writes.ts).
 */
export function workspaceFileHistory(workspace: string, dirs: PlatformDirs, warn: (message: string) => void): FileHistory {
	const folder = async () => {
		const {workspaceId, workspaceStateDir} = await import('../config/workspace-registry.js');
		return join(workspaceStateDir(dirs, await workspaceId(workspace, dirs)), 'rewind');
	};
	return new FileHistory({folder, warn, writes: workspaceWriteJournal(workspace, dirs, warn)});
}
