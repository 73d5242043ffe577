import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {existsSync, readFileSync} from 'node:fs';
import type {TestContext} from 'node:test';

/** Linux's /proc, where a process's start time can be read: the tests of reused PIDs need it. */
export const hasProc = existsSync('/proc/self/stat');

/** A live process unrelated to `i` (a `sleep`), with its start time; killed after the test. */
export async function unrelatedProcess(t: TestContext): Promise<{pid: number; started: string}> {
	const child = spawn('sleep', ['300'], {stdio: 'ignore'});
	t.after(() => child.kill('SIGKILL'));
	await once(child, 'spawn');
	return {pid: child.pid!, started: startTimeOf(child.pid!)};
}

/** Field 22 of /proc/PID/stat (its start time in clock ticks since boot), read here on its own: the fields after the command's closing parenthesis start at field 3. */
export function startTimeOf(pid: number): string {
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	return stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[22 - 3]!;
}

/** Another start time than `started`: what a lock of an earlier process with the same PID would record. */
export function otherStart(started: string): string {
	return String(BigInt(started) + 1n);
}
