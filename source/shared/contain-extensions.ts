import {describeThrown} from '../core/extensions/describe-thrown.js';
import {extensionCode, onExtensionCode, ownerOfStack, stackOrigin} from '../core/extensions/extension-code.js';
import {startExtensionWatchdog} from './extension-watchdog.js';
import {printable} from './output.js';

/** Faults reported per extension (uncaught exceptions and unhandled rejections together); later ones are counted, not shown. */
export const MAX_FAULT_REPORTS = 5;

/** Where the head shows a fault: a warning line, a notice on the chat screen. */
export type FaultReport = (message: string) => void;

/** What the head does with the terminal while extension code holds the main thread (the chat screen turns its focus reports off); returns the undo. */
export type LendTerminal = () => () => void;

const toStderr: FaultReport = message => process.stderr.write(`${printable(`i: warning: ${message}`)}\n`);
let report: FaultReport = toStderr;
const keepTerminal: LendTerminal = () => () => {};
let lendTerminal = keepTerminal;
let contained = false;
const reported = new Map<string, number>();

/**
 * spec/extensions.md §1: one extension's failure never ends the host.
 * From the moment the first extension's code is imported, for the rest of
 * the run: an exception no call of the host caught (thrown in a timer, an
 * event listener) whose stack points into an extension is reported naming
 * it, where, and from what, and the run goes on with the extension still
 * loaded; an unhandled rejection is reported the same way (and, with
 * extension code in the process, also when its stack names none: a value
 * rejected without a stack may be theirs). An exception whose stack names
 * no extension is i's own bug and still ends the process as node would.
 * The watchdog (extension-watchdog.ts) starts at the same moment. Faults
 * go to `sink` (stderr by default) until the function returned is called,
 * then to stderr.
 */
export function containExtensions(sink: FaultReport = toStderr, lend: LendTerminal = keepTerminal): () => void {
	report = sink;
	lendTerminal = lend;
	if (!contained) {
		contained = true;
		if (extensionCode().size > 0) contain();
		else {
			const stop = onExtensionCode(() => {
				stop();
				contain();
			});
		}
	}

	return () => {
		if (report !== sink) return;
		report = toStderr;
		lendTerminal = keepTerminal;
	};
}

function contain(): void {
	process.on('uncaughtException', onException);
	process.on('unhandledRejection', onRejection);
	startExtensionWatchdog(
		message => report(message),
		() => lendTerminal(),
	);
}

function onException(error: unknown): void {
	const stack = error instanceof Error ? (error.stack ?? '') : '';
	const owner = ownerOfStack(stack);
	if (!owner) {
		// Not an extension's: node's own report and exit, as if nothing listened.
		process.off('uncaughtException', onException);
		process.nextTick(() => {
			throw error;
		});
		return;
	}

	const origin = stackOrigin(stack);
	fault(owner.name, `an uncaught exception${origin ? ` in ${origin}` : ''}: ${describeThrown(error)} (at ${owner.frame}); i goes on, and ${owner.name} stays loaded`);
}

function onRejection(reason: unknown): void {
	const owner = ownerOfStack(reason instanceof Error ? (reason.stack ?? '') : '');
	if (owner) fault(owner.name, `an unhandled rejection: ${describeThrown(reason)} (at ${owner.frame})`);
	else report(`an unhandled rejection, perhaps from an extension: ${describeThrown(reason)}`);
}

/** One fault of `name`: reported up to MAX_FAULT_REPORTS times, then once that the rest are not. */
function fault(name: string, what: string): void {
	const count = (reported.get(name) ?? 0) + 1;
	reported.set(name, count);
	if (count <= MAX_FAULT_REPORTS) report(`extension ${name}: ${what}`);
	if (count === MAX_FAULT_REPORTS) report(`extension ${name}: that is ${MAX_FAULT_REPORTS} faults; its later ones are not reported`);
}
