/** Between SIGTERM and SIGKILL to the process group. */
export const KILL_GRACE_MS = 2000;
/** How often, during that grace, to look whether the group is gone (and the SIGKILL no longer wanted). */
const GROUP_PROBE_MS = 50;

/** A process group told to stop, whose SIGKILL may still be due. */
export interface GroupStop {
	/** The group's leader exited: if nothing it started is left, there is nothing to SIGKILL. */
	leaderExited(): void;
}

/**
 * SIGTERM to the process group `pid` leads, then SIGKILL after 2 s if any
 * of it is still there, so children and grandchildren go too. Without a
 * `pid` (the process never started) there is nothing more to do.
 */
export function stopGroup(pid: number | undefined): GroupStop | undefined {
	signalGroup(pid, 'SIGTERM');
	if (pid === undefined) {
		return undefined;
	}

	let timer: NodeJS.Timeout | undefined;
	// Once the group is empty its id is free for reuse, and a late SIGKILL would hit whoever got it:
	// so the SIGKILL waits only as long as the group is seen to exist.
	const deadline = Date.now() + KILL_GRACE_MS;
	const probe = () => {
		if (!groupExists(pid)) {
			killNoLongerDue(pid);
			return;
		}

		const left = deadline - Date.now();
		if (left <= 0) {
			killNoLongerDue(pid);
			signalGroup(pid, 'SIGKILL');
			return;
		}

		timer = setTimeout(probe, Math.min(GROUP_PROBE_MS, left)).unref();
	};

	scheduleKillOnExit(pid);
	// Unref'd: a pending SIGKILL never holds this process open; if it exits first, the kill is sent then.
	timer = setTimeout(probe, GROUP_PROBE_MS).unref();
	return {
		leaderExited() {
			if (!groupExists(pid)) {
				clearTimeout(timer);
				killNoLongerDue(pid);
			}
		},
	};
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
	if (pid === undefined) {
		return;
	}

	if (process.platform === 'win32') {
		// No process groups on Windows: taskkill /T walks the tree (and is always forceful).
		void import('execa').then(({execa}) => execa('taskkill', ['/pid', String(pid), '/T', '/F'], {reject: false, windowsHide: true}));
		return;
	}

	try {
		process.kill(-pid, signal);
	} catch {
		// ESRCH: the group is already gone.
	}
}

/** Process groups sent SIGTERM whose SIGKILL is still due; sent at once if this process exits first. */
const killDue = new Set<number>();

function scheduleKillOnExit(pid: number): void {
	if (killDue.size === 0) {
		process.on('exit', killDueGroups);
	}

	killDue.add(pid);
}

function killNoLongerDue(pid: number): void {
	if (killDue.delete(pid) && killDue.size === 0) {
		process.off('exit', killDueGroups);
	}
}

function killDueGroups(): void {
	for (const pid of killDue) {
		if (groupExists(pid)) {
			signalGroup(pid, 'SIGKILL');
		}
	}

	killDue.clear();
}

/** Whether any process (a zombie too) is left in the group; always false on Windows, where taskkill /F already ended the tree. */
function groupExists(pid: number): boolean {
	if (process.platform === 'win32') {
		return false;
	}

	try {
		process.kill(-pid, 0);
		return true;
	} catch (error) {
		// EPERM: a member runs as another user, which still counts.
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}
