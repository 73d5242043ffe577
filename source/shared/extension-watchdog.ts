import {writeSync} from 'node:fs';
import {ownerOfStack, type StackOwner} from '../core/extensions/extension-code.js';
import {printable} from './output.js';
import {watchdogThread, type WatchdogData} from './watchdog-thread.js';

/** How often the main thread beats: a hold is measured to this much. */
export const HEARTBEAT_MS = 250;
/**
 * Extension code holding the main thread this long (a loop that never
 * yields): i says which, and from then on Ctrl-C, SIGTERM and SIGHUP end
 * i at once, by the system's default.
 */
export const HOLD_NOTICE_MS = 2000;
/** spec/extensions.md §5 (no handler holds the host past its 10 s): still held this long, i ends itself. */
export const HOLD_LIMIT_MS = 10_000;
const PROBES_KEY = 'i.extension-watchdog';
const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

type Signal = (typeof signals)[number];

/** The main thread as held by an extension: what was put aside for the system's signals to act. */
interface Hold {
	owner: StackOwner;
	since: number;
	listeners: Map<Signal, NodeJS.SignalsListener[]>;
	raw: boolean;
	/** Gives the head's terminal modes back. */
	giveBack: () => void;
}

/**
 * The watchdog (issue 47): an extension's code cannot be cut short in its
 * own thread, so a loop that never yields would hold i for good, deaf to
 * Ctrl-C. A thread of its own (watchdog-thread.ts) sees the main thread's
 * beat stop and calls the probes below on it (they run between two
 * instructions of the loop): `hold` names the extension on stderr and gives
 * the signals back to the system; `end`, at HOLD_LIMIT_MS, runs the exit
 * listeners (locks released, child processes stopped) before the thread's
 * SIGTERM. The session file is as its last checkpoint left it: nothing of
 * it is written while the main thread is held. Started with the first
 * extension's code, so a run without extensions starts no thread.
 */
export function startExtensionWatchdog(report: (message: string) => void, lendTerminal: () => () => void): void {
	const threads = process.getBuiltinModule('node:worker_threads');
	const beats = new Int32Array(new SharedArrayBuffer(4));
	let hold: Hold | null = null;
	const probes = {
		hold(heldMs: number): boolean {
			const owner = heldBy();
			if (!owner) return false;
			const raw = process.stdin.isTTY === true && process.stdin.isRaw;
			hold = {owner, since: Date.now() - heldMs, listeners: new Map(signals.map(signal => [signal, process.listeners(signal)])), raw, giveBack: lendTerminal()};
			for (const signal of signals) process.removeAllListeners(signal);
			// The chat screen's Ctrl-C is a key while the terminal is raw: cooked, the terminal sends SIGINT.
			if (raw) setRaw(false);
			say(`extension ${owner.name} has held i for ${seconds(heldMs)} (at ${owner.frame}): Ctrl-C ends i now; i ends itself at ${seconds(HOLD_LIMIT_MS)}`);
			return true;
		},
		end(heldMs: number): boolean {
			if (!hold || !heldBy()) return false;
			say(`extension ${hold.owner.name} held i for ${seconds(heldMs)} (at ${hold.owner.frame}): i ends; the session keeps its last complete step (i -c goes on from it)`);
			for (const listener of process.listeners('exit')) {
				try {
					listener.call(process, 143);
				} catch {}
			}

			return true;
		},
	};
	(globalThis as Record<symbol, unknown>)[Symbol.for(PROBES_KEY)] = probes;
	const beat = setInterval(() => {
		Atomics.add(beats, 0, 1);
		if (!hold) return;
		const {owner, since, listeners, raw, giveBack} = hold;
		hold = null;
		for (const [signal, list] of listeners) for (const listener of list) process.on(signal, listener);
		if (raw) setRaw(true);
		giveBack();
		report(`extension ${owner.name} let go after ${seconds(Date.now() - since)}; i goes on`);
	}, HEARTBEAT_MS);
	beat.unref();
	const data: WatchdogData = {beats: beats.buffer as SharedArrayBuffer, key: PROBES_KEY, noticeMs: HOLD_NOTICE_MS, limitMs: HOLD_LIMIT_MS, pollMs: HEARTBEAT_MS};
	const worker = new threads.Worker(`(${watchdogThread.toString()})()`, {eval: true, workerData: data, execArgv: []});
	worker.unref();
	worker.on('error', error => report(`the extension watchdog stopped: ${error.message}; an extension that never yields would hold i`));
}

/** The extension whose code the main thread is in, from the probe's own stack (which holds the frames it interrupted). */
function heldBy(): StackOwner | null {
	const limit = Error.stackTraceLimit;
	Error.stackTraceLimit = 64;
	try {
		return ownerOfStack(new Error('probe').stack ?? '');
	} finally {
		Error.stackTraceLimit = limit;
	}
}

/** The terminal's raw mode, when it is still there to set. */
function setRaw(raw: boolean): void {
	try {
		process.stdin.setRawMode(raw);
	} catch {}
}

/** Straight to stderr: the main thread is held, so nothing queued would be written. */
function say(message: string): void {
	try {
		writeSync(2, `${printable(`i: ${message}`)}\n`);
	} catch {}
}

function seconds(ms: number): string {
	return `${Math.round(ms / 100) / 10} s`;
}
