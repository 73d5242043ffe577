import {closeSync, existsSync, openSync, unlinkSync, writeSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {randomBytes} from 'node:crypto';
import {unixSocketFilter} from './unix-socket-filter.js';

/** The host's /dev/shm: a sandbox has a /dev of its own, so no sandboxed process sees the file while it has a name. */
const PRIVATE_FOLDER = '/dev/shm';

let opened: string | null | undefined;

/**
 * A path that opens the UNIX-socket filter (unix-socket-filter.ts) afresh
 * for each command, null where no filter is built for this architecture:
 * `/proc/<i's pid>/fd/<n>` of a file `i` wrote, keeps open and unlinked at
 * once, so nothing can change it and nothing is left behind. Only `i`'s own
 * children outside a sandbox can open it; bubblewrap reads it on fd 3.
 */
export function filterPath(): string | null {
	if (opened !== undefined) return opened;
	const program = unixSocketFilter();
	if (program === null) {
		opened = null;
		return opened;
	}

	const folder = existsSync(PRIVATE_FOLDER) ? PRIVATE_FOLDER : tmpdir();
	const path = join(folder, `i-seccomp-${process.pid}-${randomBytes(6).toString('hex')}`);
	// Created read-only for everyone, written through this descriptor only.
	const fd = openSync(path, 'wx+', 0o400);
	try {
		writeSync(fd, program);
	} catch (error) {
		closeSync(fd);
		throw error;
	} finally {
		unlinkSync(path);
	}

	opened = `/proc/${process.pid}/fd/${fd}`;
	return opened;
}
