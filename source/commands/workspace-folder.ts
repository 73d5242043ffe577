import {realpath, stat} from 'node:fs/promises';
import {resolve} from 'node:path';
import {errorMessage} from '../core/errors.js';

/** A `-C DIR` of a runtime command, canonical; an error naming it when it is missing or not a folder. */
export async function workspaceFolder(dir: string): Promise<string> {
	try {
		const workspace = await realpath(dir);
		if (!(await stat(workspace)).isDirectory()) throw new Error('not a folder');
		return workspace;
	} catch (error) {
		throw new Error(`workspace ${resolve(dir)}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : errorMessage(error)}`);
	}
}
