import {readFileSync} from 'node:fs';
import {hostname} from 'node:os';

/**
 * Who owns a lock or an unfinished write: a process on a host, and on Linux
 * the moment it started (field 22 of /proc/PID/stat, clock ticks since
 * boot, kept as the text it is). A PID alone is reused by an unrelated
 * process sooner or later; PID and start time together are not.
 */
export interface ProcessOwner {
	pid: number;
	hostname: string;
	/** Absent where /proc gives no start time (macOS, Windows): the PID alone is judged there. */
	started?: string;
}

/** Field 22 of /proc/PID/stat, the process's start time, counted in /proc's fields from 1. */
const START_TIME_FIELD = 22;

let self: ProcessOwner | undefined;

/** This process, as an owner file records it. */
export function ownProcess(): ProcessOwner {
	if (self === undefined) {
		const started = processStartTime(process.pid);
		self = {pid: process.pid, hostname: hostname(), ...(started === undefined ? {} : {started})};
	}

	return self;
}

/**
 * The start time of process `pid`, undefined when it cannot be read (no
 * /proc, or the process is gone). The command name in parentheses may hold
 * spaces and parentheses itself, so fields are counted after the last `)`.
 */
export function processStartTime(pid: number): string | undefined {
	let stat: string;
	try {
		stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
	} catch {
		return undefined;
	}

	// After ") " come the fields from the third (state) on.
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	const started = fields[START_TIME_FIELD - 3];
	return started !== undefined && /^\d+$/.test(started) ? started : undefined;
}

/**
 * Whether the owner is still running: `gone` when its PID is free on this
 * host, or is taken by a process that started at another time (a reused
 * PID); `alive` otherwise; `elsewhere` when it ran on another host, where
 * nothing can be checked.
 */
export function ownerState(owner: ProcessOwner): 'alive' | 'gone' | 'elsewhere' {
	if (owner.hostname !== hostname()) return 'elsewhere';
	if (!pidInUse(owner.pid)) return 'gone';
	if (owner.started === undefined) return 'alive';
	const started = processStartTime(owner.pid);
	return started === undefined || started === owner.started ? 'alive' : 'gone';
}

function pidInUse(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: alive but another user's.
		return (error as NodeJS.ErrnoException).code !== 'ESRCH';
	}
}
