import {createRequire} from 'node:module';
import type {IPty} from '@lydell/node-pty';
import type {Terminal as TerminalType} from '@xterm/headless';
import {cliPath} from './cli.js';

// Both packages are CommonJS; xterm's has no ESM entry Node can load.
const require = createRequire(import.meta.url);
const pty = require('@lydell/node-pty') as typeof import('@lydell/node-pty');
const {Terminal} = require('@xterm/headless') as {Terminal: typeof TerminalType};

export interface TerminalRun {
	readonly pty: IPty;
	readonly terminal: TerminalType;
	/** Everything the program wrote, as it wrote it. */
	readonly output: () => string;
	/** The visible screen, one string per row, trailing spaces trimmed. */
	screen(): string[];
	/** The whole buffer, scrollback included. */
	buffer(): string[];
	/** The terminal's cursor (column, row on the screen). */
	cursor(): {x: number; y: number};
	type(text: string): void;
	/** Resolves when `check` holds for the screen (or the whole buffer). */
	waitFor(check: (text: string) => boolean, what: string, options?: {timeoutMs?: number; whole?: boolean}): Promise<void>;
	exited: Promise<{exitCode: number; signal?: number}>;
	kill(): void;
}

/**
 * Runs the built `i` in a real pseudo-terminal whose screen is an xterm
 * emulator, so a test reads what a person would see and types what a
 * person would type.
 */
export function runInTerminal(args: string[], options: {env: NodeJS.ProcessEnv; cols?: number; rows?: number; cwd?: string}): TerminalRun {
	const cols = options.cols ?? 100;
	const rows = options.rows ?? 30;
	const terminal = new Terminal({cols, rows, scrollback: 10_000, allowProposedApi: true});
	const child = pty.spawn(process.execPath, [cliPath, ...args], {
		name: 'xterm-256color',
		cols,
		rows,
		cwd: options.cwd ?? process.cwd(),
		env: {TERM: 'xterm-256color', ...options.env} as Record<string, string>,
	});
	let output = '';
	child.onData(data => {
		output += data;
		terminal.write(data);
	});
	const exited = new Promise<{exitCode: number; signal?: number}>(resolve => child.onExit(resolve));
	const lines = (from: number, to: number) => {
		const buffer = terminal.buffer.active;
		const result: string[] = [];
		for (let row = from; row < to; row++) result.push(buffer.getLine(row)?.translateToString(true) ?? '');
		return result;
	};

	// Writes to the emulator are parsed asynchronously: wait until they are in before reading.
	const settled = async () => new Promise<void>(resolve => terminal.write('', resolve));
	return {
		pty: child,
		terminal,
		output: () => output,
		screen: () => lines(terminal.buffer.active.baseY, terminal.buffer.active.baseY + rows),
		buffer: () => lines(0, terminal.buffer.active.length),
		cursor: () => ({x: terminal.buffer.active.cursorX, y: terminal.buffer.active.cursorY}),
		type: text => child.write(text),
		async waitFor(check, what, waitOptions = {}) {
			const deadline = Date.now() + (waitOptions.timeoutMs ?? 10_000);
			for (;;) {
				await settled();
				const text = (waitOptions.whole ? lines(0, terminal.buffer.active.length) : lines(terminal.buffer.active.baseY, terminal.buffer.active.baseY + rows)).join('\n');
				if (check(text)) return;
				if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen:\n${text}`);
				await new Promise(resolve => setTimeout(resolve, 25));
			}
		},
		exited,
		kill: () => child.kill('SIGKILL'),
	};
}
