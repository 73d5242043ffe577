import {spawnSync} from 'node:child_process';

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Wall time of one run of a command, in milliseconds; fails loudly if it fails. */
export function timeCommand(command: string, args: string[], options: {env?: NodeJS.ProcessEnv; input?: string} = {}): number {
	const start = process.hrtime.bigint();
	const result = spawnSync(command, args, {env: options.env ?? process.env, input: options.input ?? '', encoding: 'utf8'});
	const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
	if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
	return elapsed;
}

export async function timeAsync(run: () => Promise<void>): Promise<number> {
	const start = process.hrtime.bigint();
	await run();
	return Number(process.hrtime.bigint() - start) / 1e6;
}
