import {spawnSync} from 'node:child_process';

/** SIGKILL to a process's whole group (a worker, an MCP server: each started as a group's leader); on Windows, which has no groups, taskkill walks the tree. */
export function killGroup(pid: number | undefined): void {
	if (pid === undefined) return;
	if (process.platform === 'win32') {
		spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], {stdio: 'ignore', windowsHide: true});
		return;
	}

	try {
		process.kill(-pid, 'SIGKILL');
	} catch {
		// ESRCH: the group is gone already.
	}
}
