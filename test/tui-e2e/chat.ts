/**
 * The chat screen in a real pseudo-terminal against the mock provider: a
 * sandbox, a config pointing at the mock, the built `i` started in its
 * workspace, and a wait until the screen listens to the keyboard.
 */
import {readFileSync} from 'node:fs';
import type {MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, type Sandbox} from '../helpers/cli.js';
import {runInTerminal, type TerminalRun} from '../helpers/pty.js';

export const MODEL = 'mock-model';

export interface Chat {
	run: TerminalRun;
	box: Sandbox;
}

export interface ChatOptions {
	args?: string[];
	env?: NodeJS.ProcessEnv;
	cols?: number;
	rows?: number;
	/** Wait for the ready screen (default true). */
	ready?: boolean;
	box?: Sandbox;
	/** More fields of the model config (`plugins`, say). */
	config?: Record<string, unknown>;
}

export async function startChat(mock: MockProvider, options: ChatOptions = {}): Promise<Chat> {
	const box = options.box ?? makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: MODEL, max_retries: 0, ...options.config});
	const run = runInTerminal(['-C', box.workspace, ...(options.args ?? [])], {
		env: {...box.env, ...options.env},
		cwd: box.workspace,
		cols: options.cols,
		rows: options.rows,
	});
	if (options.ready ?? true) {
		try {
			await run.ready();
		} catch (error) {
			await run.close();
			throw error;
		}
	}

	return {run, box};
}

/** The text of a chat request's last user message (string content or text parts). */
export function lastUserText(body: any): string {
	const user = [...body.messages].reverse().find((message: any) => message.role === 'user');
	return textOf(user?.content);
}

export function textOf(content: unknown): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) return content.map((part: any) => (typeof part?.text === 'string' ? part.text : '')).join('');
	return '';
}

/** The tool results a chat request carries, by call ID. */
export function toolResults(body: any): Map<string, string> {
	return new Map(body.messages.filter((message: any) => message.role === 'tool').map((message: any) => [message.tool_call_id, textOf(message.content)]));
}

/** A session file's checkpoints: the messages of each step line, in order. */
export function sessionSteps(path: string): Array<Array<{role: string; content: unknown}>> {
	return readFileSync(path, 'utf8')
		.split('\n')
		.filter(line => line.trim() !== '')
		.map(line => JSON.parse(line) as {type: string; messages?: Array<{role: string; content: unknown}>})
		.filter(line => line.type === 'step')
		.map(line => line.messages ?? []);
}

/** The screen row that starts with `prefix`, or -1. */
export function rowOf(run: TerminalRun, prefix: string): number {
	return run.screen().findIndex(row => row.startsWith(prefix));
}

/** Whether the program last showed the cursor (Ink hides it while it draws a frame and shows it at the caret). */
export function cursorShown(output: string): boolean {
	return output.lastIndexOf('\u001B[?25h') > output.lastIndexOf('\u001B[?25l');
}

/** Raw output without escape sequences (CSI, OSC, and two-byte ESC sequences): the text the program drew, in order, frames included. */
export function stripEscapes(output: string): string {
	// eslint-disable-next-line no-control-regex
	return output.replaceAll(/\u001B\[[0-?]*[ -/]*[@-~]|\u001B\][^\u0007\u001B]*(?:\u0007|\u001B\\)|\u001B[@-Z\\-_]/g, '');
}

/** Whether the first cell of `text` on the screen is drawn in inverse video (a selected option). */
export function isInverse(run: TerminalRun, text: string): boolean {
	const screen = run.screen();
	const row = screen.findIndex(line => line.includes(text));
	if (row === -1) return false;
	const buffer = run.terminal.buffer.active;
	// Column by string index: callers pass ASCII rows.
	const cell = buffer.getLine(buffer.baseY + row)?.getCell(screen[row]!.indexOf(text));
	return (cell?.isInverse() ?? 0) !== 0;
}
