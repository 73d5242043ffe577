import {spawn} from 'node:child_process';
import {readFileSync} from 'node:fs';

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Wall time of one run of a command in milliseconds; fails loudly if it
 * fails. Asynchronous, so a server in this process can answer the command.
 */
export async function timeCommand(command: string, args: string[], options: {env?: NodeJS.ProcessEnv} = {}): Promise<number> {
	const start = process.hrtime.bigint();
	const child = spawn(command, args, {env: options.env ?? process.env, stdio: ['ignore', 'ignore', 'pipe']});
	let stderr = '';
	child.stderr.setEncoding('utf8').on('data', chunk => (stderr += chunk));
	const code = await new Promise<number | null>((resolve, reject) => {
		child.on('error', reject);
		child.on('close', resolve);
	});
	const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
	if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr}`);
	return elapsed;
}

export async function timeAsync(run: () => Promise<void>): Promise<number> {
	const start = process.hrtime.bigint();
	await run();
	return Number(process.hrtime.bigint() - start) / 1e6;
}

export function timeSync(run: () => void): number {
	const start = process.hrtime.bigint();
	run();
	return Number(process.hrtime.bigint() - start) / 1e6;
}

/** CPU (user + system) of this process's reaped children so far, in milliseconds (Linux /proc: cutime + cstime). */
export function childrenCpuMs(): number {
	const stat = readFileSync('/proc/self/stat', 'utf8');
	// The command name may hold spaces and parentheses: count fields after its last ')'.
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS;
}

/** USER_HZ on Linux: /proc reports times in these ticks. */
const CLOCK_TICKS = 100;

/**
 * Wall and CPU time of one run of a command, in milliseconds. The CPU is the
 * whole tree the command waited for (its workers included, since `i` reaps
 * them before it exits), read from this process's children's times.
 */
export async function timeCommandCpu(command: string, args: string[], options: {env?: NodeJS.ProcessEnv} = {}): Promise<{wallMs: number; cpuMs: number}> {
	const before = childrenCpuMs();
	const wallMs = await timeCommand(command, args, options);
	return {wallMs, cpuMs: childrenCpuMs() - before};
}
