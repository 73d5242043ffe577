import {spawn, type ChildProcess} from 'node:child_process';
import {mkdtemp, realpath, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {TestContext} from 'node:test';
import type {Message} from '../../source/core/messages.js';

/** The compiled store, for child processes to import by absolute URL. */
export const storeUrl = new URL('../../source/core/session/session-store.js', import.meta.url).href;

/** A fresh temp folder by its real path (sessions report canonical paths), removed after the test. */
export async function tempWorkspace(t: TestContext): Promise<string> {
	const dir = await realpath(await mkdtemp(join(tmpdir(), 'i-session-test-')));
	t.after(() => rm(dir, {recursive: true, force: true}));
	return dir;
}

/** A deterministic step of varying size (up to ~40 KB), with CJK so cuts land inside multi-byte characters. */
export function stepFor(n: number): Message[] {
	const size = (n * 7919) % 40_000;
	return [
		{role: 'user', content: `step ${n} 你好 ${'x'.repeat(size)}`},
		{role: 'assistant', content: `answer ${n}`, _anthropic_content: [{type: 'thinking', thinking: 'hm', signature: 'sig'}]},
	];
}

export interface NodeChild {
	child: ChildProcess;
	/** Resolves with the first stdout line that satisfies `match`; rejects if the child exits first. */
	line(match: (line: string) => boolean): Promise<string>;
	/** Every stdout line so far. */
	readonly lines: string[];
	exited: Promise<number | null>;
}

/** Runs an ES module script in a new `node`, with the store imported as `openSession`. */
export function runNode(script: string): NodeChild {
	const source = `import {openSession} from ${JSON.stringify(storeUrl)};\n${script}`;
	const child = spawn(process.execPath, ['--input-type=module', '-e', source], {stdio: ['pipe', 'pipe', 'inherit']});
	const lines: string[] = [];
	const waiters: Array<{match: (line: string) => boolean; resolve: (line: string) => void; reject: (error: Error) => void}> = [];
	let pending = '';
	child.stdout!.setEncoding('utf8');
	child.stdout!.on('data', (text: string) => {
		const parts = (pending + text).split('\n');
		pending = parts.pop() ?? '';
		for (const line of parts) {
			lines.push(line);
			for (const waiter of waiters.splice(0)) {
				if (waiter.match(line)) waiter.resolve(line);
				else waiters.push(waiter);
			}
		}
	});
	const exited = new Promise<number | null>(resolve =>
		child.on('exit', code => {
			for (const waiter of waiters.splice(0)) waiter.reject(new Error(`child exited (${code}) before the expected line; output: ${lines.join(' | ')}`));
			resolve(code);
		}),
	);
	return {
		child,
		lines,
		exited,
		line(match) {
			const found = lines.find(match);
			if (found !== undefined) return Promise.resolve(found);
			if (child.exitCode !== null || child.signalCode !== null) return Promise.reject(new Error(`child already exited; output: ${lines.join(' | ')}`));
			return new Promise((resolve, reject) => waiters.push({match, resolve, reject}));
		},
	};
}
