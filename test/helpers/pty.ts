import {readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import type {IPty} from '@lydell/node-pty';
import type {Terminal as TerminalType} from '@xterm/headless';
import {binPath} from './cli.js';

// Both packages are CommonJS; xterm's has no ESM entry Node can load.
const require = createRequire(import.meta.url);
const pty = require('@lydell/node-pty') as typeof import('@lydell/node-pty');
const {Terminal} = require('@xterm/headless') as {Terminal: typeof TerminalType};

/** Slow machines and CI: a wait that fails should fail on a real hang, not on a busy runner. */
export const DEFAULT_WAIT_MS = 20_000;

export interface TerminalOptions {
	env: NodeJS.ProcessEnv;
	cols?: number;
	rows?: number;
	cwd?: string;
	/** Lines the emulator keeps above the screen. */
	scrollback?: number;
	/** False: no emulator at all, only the raw output (a benchmark's own CPU stays off the measured machine's back). */
	emulate?: boolean;
	/** Every chunk the program writes, as it arrives. */
	onData?: (data: string) => void;
}

export interface WaitOptions {
	timeoutMs?: number;
	/** Check the whole buffer, scrollback included, instead of the screen. */
	whole?: boolean;
}

export interface TerminalRun {
	readonly pty: IPty;
	readonly terminal: TerminalType;
	/** The program's process ID (node running `i`: no shell in between). */
	readonly pid: number;
	/** Everything the program wrote, as it wrote it. */
	readonly output: () => string;
	/** The visible screen, one string per row, trailing spaces trimmed. */
	screen(): string[];
	/** The whole buffer, scrollback included, one string per row. */
	buffer(): string[];
	/** The whole buffer as the program's lines: rows the terminal wrapped are joined again. */
	lines(): string[];
	/** The terminal's cursor (column, row on the screen). */
	cursor(): {x: number; y: number};
	type(text: string): void;
	/** Resizes the pseudo-terminal (the program gets SIGWINCH) and the emulator together. */
	resize(cols: number, rows: number): void;
	/** Resolves when `check` holds for the screen (or the whole buffer), once all output so far is parsed. */
	waitFor(check: (text: string) => boolean, what: string, options?: WaitOptions): Promise<void>;
	/** Resolves when `check` holds, tested after all output so far is parsed (e.g. the cursor's place). */
	waitUntil(check: () => boolean, what: string, options?: {timeoutMs?: number}): Promise<void>;
	/** Resolves when `check` holds for the raw output. */
	waitForOutput(check: (output: string) => boolean, what: string, options?: {timeoutMs?: number}): Promise<void>;
	/** Resolves when the chat screen takes messages: status line drawn, raw mode and bracketed paste on, the agent set up. */
	ready(options?: {timeoutMs?: number}): Promise<void>;
	/** All output written so far is in the emulator. */
	settled(): Promise<void>;
	/** CPU time (user + system) the program used so far, in milliseconds, from /proc. */
	cpuMs(): number;
	/** The exit, or a rejection naming the screen after `timeoutMs`. */
	exit(timeoutMs?: number): Promise<{exitCode: number; signal?: number}>;
	exited: Promise<{exitCode: number; signal?: number}>;
	/** Kills the program if it still runs and frees the emulator; safe to call twice. */
	close(): Promise<void>;
}

const clockTicks = 100; // USER_HZ on Linux; /proc reports times in these ticks.

/** utime + stime of a process, in milliseconds (fields 14 and 15 of /proc/PID/stat, after the command name). */
export function processCpuMs(pid: number): number {
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	// The command name may hold spaces and parentheses: count fields after its last ')'.
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
}

/**
 * Runs the built `i` in a real pseudo-terminal whose screen is an xterm
 * emulator, so a test reads what a person would see and types what a
 * person would type.
 */
export function runInTerminal(args: string[], options: TerminalOptions): TerminalRun {
	return spawnInTerminal(process.execPath, [binPath, ...args], options);
}

/** Any program in a pseudo-terminal with an emulator for a screen (a benchmark's baseline runs bare node here). */
export function spawnInTerminal(file: string, args: string[], options: TerminalOptions): TerminalRun {
	let cols = options.cols ?? 100;
	let rows = options.rows ?? 30;
	const terminal = new Terminal({cols, rows, scrollback: options.scrollback ?? 10_000, allowProposedApi: true});
	const emulate = options.emulate ?? true;
	const child = pty.spawn(file, args, {
		name: 'xterm-256color',
		cols,
		rows,
		cwd: options.cwd ?? process.cwd(),
		env: {TERM: 'xterm-256color', ...options.env} as Record<string, string>,
	});
	const chunks: string[] = [];
	let joined = '';
	const output = () => {
		if (chunks.length > 0) {
			joined += chunks.join('');
			chunks.length = 0;
		}

		return joined;
	};

	child.onData(data => {
		chunks.push(data);
		options.onData?.(data);
		if (emulate) terminal.write(data);
	});
	let running = true;
	const exited = new Promise<{exitCode: number; signal?: number}>(resolve =>
		child.onExit(result => {
			running = false;
			resolve(result);
		}),
	);
	const rowsOf = (from: number, to: number) => {
		const buffer = terminal.buffer.active;
		const result: string[] = [];
		for (let row = from; row < to; row++) result.push(buffer.getLine(row)?.translateToString(true) ?? '');
		return result;
	};

	const screen = () => rowsOf(terminal.buffer.active.baseY, terminal.buffer.active.baseY + rows);
	const buffer = () => rowsOf(0, terminal.buffer.active.length);
	// Writes to the emulator are parsed asynchronously: wait until they are in before reading.
	const settled = async () => new Promise<void>(resolve => terminal.write('', resolve));
	const poll = async (check: () => boolean, what: string, timeoutMs: number, describe: () => string) => {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			await settled();
			// Inside a synchronized update (DEC 2026) the program is between the writes of one frame: a real
			// terminal shows nothing of it yet, so neither does this one.
			if (!terminal.modes.synchronizedOutputMode && check()) return;
			if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; ${describe()}`);
			await new Promise(resolve => setTimeout(resolve, 25));
		}
	};

	const run: TerminalRun = {
		pty: child,
		terminal,
		pid: child.pid,
		output,
		screen,
		buffer,
		lines() {
			const active = terminal.buffer.active;
			const result: string[] = [];
			for (let row = 0; row < active.length; row++) {
				const line = active.getLine(row);
				if (!line) continue;
				// A row the next one continues is taken untrimmed, so a space at the wrap stays.
				const text = line.translateToString(!active.getLine(row + 1)?.isWrapped);
				if (line.isWrapped && result.length > 0) result[result.length - 1] += text;
				else result.push(text);
			}

			return result;
		},
		cursor: () => ({x: terminal.buffer.active.cursorX, y: terminal.buffer.active.cursorY}),
		type: text => child.write(text),
		resize(newCols, newRows) {
			cols = newCols;
			rows = newRows;
			child.resize(newCols, newRows);
			terminal.resize(newCols, newRows);
		},
		async waitFor(check, what, waitOptions = {}) {
			const text = () => (waitOptions.whole ? buffer() : screen()).join('\n');
			await poll(
				() => check(text()),
				what,
				waitOptions.timeoutMs ?? DEFAULT_WAIT_MS,
				() => `the ${waitOptions.whole ? 'buffer' : 'screen'}:\n${text()}`,
			);
		},
		async waitUntil(check, what, waitOptions = {}) {
			await poll(check, what, waitOptions.timeoutMs ?? DEFAULT_WAIT_MS, () => `the cursor: ${JSON.stringify(run.cursor())}; the screen:\n${screen().join('\n')}`);
		},
		async waitForOutput(check, what, waitOptions = {}) {
			await poll(
				() => check(output()),
				what,
				waitOptions.timeoutMs ?? DEFAULT_WAIT_MS,
				() => `the last output: ${JSON.stringify(output().slice(-2000))}`,
			);
		},
		async ready(waitOptions = {}) {
			// The status line is drawn in the first frame, before the editor's effect turns raw mode on; keys typed
			// before that would be echoed and line-buffered by the terminal. Bracketed paste is asked for right after raw mode.
			await poll(
				() => terminal.modes.bracketedPasteMode && screen().some(row => row.endsWith('/help')) && !screen().some(row => row.includes('starting — Ctrl-C to leave')),
				'the chat screen to be ready (status line with /help, bracketed paste on, the agent set up)',
				waitOptions.timeoutMs ?? DEFAULT_WAIT_MS,
				() => `running: ${running}; the screen:\n${screen().join('\n')}`,
			);
		},
		settled,
		cpuMs: () => processCpuMs(child.pid),
		async exit(timeoutMs = DEFAULT_WAIT_MS) {
			let timer: NodeJS.Timeout | undefined;
			const timeout = new Promise<never>((_resolve, reject) => {
				timer = setTimeout(() => reject(new Error(`the program did not exit within ${timeoutMs} ms; the screen:\n${screen().join('\n')}`)), timeoutMs);
			});
			try {
				return await Promise.race([exited, timeout]);
			} finally {
				clearTimeout(timer);
			}
		},
		exited,
		async close() {
			if (running) {
				child.kill('SIGKILL');
				await exited;
			}

			terminal.dispose();
		},
	};
	return run;
}
