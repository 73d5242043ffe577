import {spawn, type ChildProcessWithoutNullStreams} from 'node:child_process';
import {deserializeMessage, serializeMessage} from '@modelcontextprotocol/sdk/shared/stdio.js';
import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js';
import type {JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js';
import {StderrTail} from '../pool/stderr-tail.js';
import {killGroup} from '../pool/kill-group.js';
import {LineReader, LineTooLongError} from './line-reader.js';

/** A server's stderr kept for the message that explains its failure: the end of it, in bounded memory (spec/platform.md §2's drained stderr). */
export const MCP_STDERR_TAIL_BYTES = 16 * 1024;
/** One JSON-RPC line from a server; a longer one ends the connection rather than growing memory without bound. */
export const MAX_MCP_MESSAGE_BYTES = 32 * 1024 * 1024;

export interface StdioServer {
	command: string;
	args: readonly string[];
	/** The whole environment: workerEnvironment() plus the entry's `env`, nothing else. */
	env: Record<string, string>;
	cwd: string;
	/** What goes with the server when it is closed: its sandbox's domain proxy. */
	release?: (() => Promise<void>) | undefined;
}

/** Every group still running, killed when `i` exits however it exits: a detached server would outlive it. */
const running = new Set<number>();
let exitHookInstalled = false;

function installExitHook(): void {
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	process.once('exit', () => {
		for (const pid of running) killGroup(pid);
	});
}

/**
 * The SDK's Transport over a server's stdin and stdout, with the SDK's own
 * framing (ReadBuffer, serializeMessage). Not the SDK's
 * StdioClientTransport: that one keeps the server in `i`'s process group
 * and adds its own list of inherited variables (USER, SHELL, TERM…) to the
 * environment. Here the server runs in a group of its own (detached), so a
 * kill on timeout, reconnect or exit reaches everything it started; its
 * environment is exactly the one given; its stderr is drained into a
 * bounded tail for error messages, never printed over the screen.
 */
export class GroupStdioTransport implements Transport {
	onclose?: () => void;
	onerror?: (error: Error) => void;
	onmessage?: (message: JSONRPCMessage) => void;
	readonly stderr = new StderrTail(MCP_STDERR_TAIL_BYTES);
	readonly #server: StdioServer;
	readonly #lines = new LineReader(MAX_MCP_MESSAGE_BYTES);
	#child: ChildProcessWithoutNullStreams | undefined;
	#exit: string | undefined;

	constructor(server: StdioServer) {
		this.#server = server;
	}

	get pid(): number | undefined {
		return this.#child?.pid;
	}

	/** How the process ended (`exited with code 1`, `was killed by SIGKILL`); undefined while it runs. */
	get exit(): string | undefined {
		return this.#exit;
	}

	async start(): Promise<void> {
		if (this.#child) throw new Error('the transport was started already');
		installExitHook();
		const child = spawn(this.#server.command, [...this.#server.args], {cwd: this.#server.cwd, env: this.#server.env, detached: true, stdio: 'pipe', windowsHide: true});
		this.#child = child;
		await new Promise<void>((resolve, reject) => {
			child.once('spawn', () => {
				if (child.pid !== undefined) running.add(child.pid);
				resolve();
			});
			child.once('error', error => {
				this.#exit ??= `could not be started: ${error.message}`;
				reject(new Error(`could not start ${JSON.stringify(this.#server.command)}: ${error.message}`));
			});
		});
		child.stderr.on('data', (chunk: Buffer) => this.stderr.push(chunk));
		child.stdout.on('data', (chunk: Buffer) => {
			try {
				for (const line of this.#lines.push(chunk)) this.onmessage?.(deserializeMessage(line));
			} catch (error) {
				// Too long: the connection ends, and how it ended names the limit.
				if (error instanceof LineTooLongError) this.#exit ??= error.message;
				this.onerror?.(error as Error);
				void this.close();
			}
		});
		for (const stream of [child.stdin, child.stdout, child.stderr]) stream.on('error', error => this.onerror?.(error));
		child.once('exit', (code, signal) => {
			this.#exit ??= code === null ? `was killed by ${signal}` : `exited with code ${code}`;
			if (child.pid !== undefined) running.delete(child.pid);
			// The server's children go with it: nothing it started outlives the connection.
			killGroup(child.pid);
			this.onclose?.();
		});
	}

	async send(message: JSONRPCMessage): Promise<void> {
		const child = this.#child;
		if (!child || this.#exit !== undefined) throw new Error(`the server ${this.#exit ?? 'is not running'}`);
		if (!child.stdin.write(serializeMessage(message))) await new Promise<void>(resolve => child.stdin.once('drain', resolve));
	}

	/** Kills the whole group at once: a server is a program we started, with nothing of ours to save, and `i` exiting must not wait for it. */
	async close(): Promise<void> {
		try {
			await this.#stop();
		} finally {
			await this.#server.release?.().catch(() => {});
		}
	}

	async #stop(): Promise<void> {
		const child = this.#child;
		this.#lines.clear();
		if (!child || child.exitCode !== null || child.signalCode !== null) return;
		this.#exit ??= 'was stopped';
		const exited = new Promise<void>(resolve => child.once('exit', () => resolve()));
		child.stdin.end();
		killGroup(child.pid);
		await exited;
	}
}
