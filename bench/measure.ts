import {spawn} from 'node:child_process';

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

/**
 * Wall and CPU time of one run of a command, in milliseconds. The CPU is the
 * whole tree the command waited for (its workers included, since `i` reaps
 * them before it exits): bash's \`time\` reports the command's rusage to the
 * millisecond, where /proc's children's times count 10 ms ticks, a step of
 * 0.06 in a ratio of two 170 ms runs. Both times are bash's, taken around the
 * command alone: its own start is not in them.
 */
export async function timeCommandCpu(command: string, args: string[], options: {env?: NodeJS.ProcessEnv} = {}): Promise<{wallMs: number; cpuMs: number}> {
	// fd 3 takes the timing line; the command's stderr stays on fd 2 (through fd 4 around the braces).
	const script = 'TIMEFORMAT="%3R %3U %3S"; { time "$@" 2>&4 4>&-; } 4>&2 2>&3';
	const child = spawn(BASH, ['-c', script, 'bench', command, ...args], {env: options.env ?? process.env, stdio: ['ignore', 'ignore', 'pipe', 'pipe']});
	let stderr = '';
	let timing = '';
	child.stderr!.setEncoding('utf8').on('data', chunk => (stderr += chunk));
	(child.stdio[3] as NodeJS.ReadableStream).setEncoding('utf8').on('data', chunk => (timing += chunk));
	const code = await new Promise<number | null>((resolve, reject) => {
		child.on('error', reject);
		child.on('close', resolve);
	});
	if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr}`);
	// Seconds with three decimals; a locale may write the point as a comma.
	const seconds = timing
		.trim()
		.split(/\s+/)
		.map(word => Number(word.replace(',', '.')));
	if (seconds.length !== 3 || seconds.some(value => !Number.isFinite(value))) throw new Error(`${command} ${args.join(' ')}: bash's time printed ${JSON.stringify(timing)}`);
	const [real, user, system] = seconds as [number, number, number];
	return {wallMs: real * 1000, cpuMs: (user + system) * 1000};
}

const BASH = '/bin/bash';
