import {sep} from 'node:path';
import {pathToFileURL} from 'node:url';

/**
 * Where the extension code this process loaded lives, by the path each was
 * listed with (a module file or a package folder), with its name: a fault
 * no call of the host caught (an uncaught exception, an unhandled
 * rejection, a main thread held) is blamed on the extension its stack
 * points into (spec/extensions.md §1). Noted before each module is
 * imported, and never forgotten: an old generation's timers still run.
 */
const places = new Map<string, ExtensionPlace>();
const listeners = new Set<() => void>();

/** The extension listed with a path: its name, and whether the path is a package folder (else the module file). */
export interface ExtensionPlace {
	name: string;
	folder: boolean;
}

/** A module is about to be imported from `path`: its code may run from now on. */
export function noteExtensionCode(path: string, place: ExtensionPlace): void {
	places.set(path, place);
	for (const listener of listeners) listener();
}

/** `listener` runs as each extension's code is noted, before that code runs; returns the function that stops it. */
export function onExtensionCode(listener: () => void): () => void {
	listeners.add(listener);
	return () => listeners.delete(listener);
}

/** The extension code noted so far, by path. */
export function extensionCode(): ReadonlyMap<string, ExtensionPlace> {
	return places;
}

/** Whose code a stack's innermost extension frame is, and that frame (`fn (file:line:col)`). */
export interface StackOwner {
	name: string;
	path: string;
	frame: string;
}

/**
 * The extension whose code is the innermost frame of `stack` that any of
 * `code` holds (a file itself, or anything under a package folder), as a
 * file path or a `file:` URL; null when no frame is extension code.
 */
export function ownerOfStack(stack: string, code: ReadonlyMap<string, ExtensionPlace> = places): StackOwner | null {
	const marks = [...code].map(([path, {name, folder}]) => ({name, path, marks: pathMarks(path, folder)}));
	for (const line of stack.split('\n')) {
		const frame = /^\s*at (.*)$/.exec(line)?.[1];
		if (frame === undefined) continue;
		const place = marks.find(candidate => candidate.marks.some(mark => frame.includes(mark)));
		if (place) return {name: place.name, path: place.path, frame};
	}

	return null;
}

/**
 * What the stack's outermost frames say started the code that failed: a
 * timer, an event listener, a promise callback; '' when they say nothing
 * (a stack cut by Error.stackTraceLimit, a value with no stack).
 */
export function stackOrigin(stack: string): string {
	const frames = stack.split('\n').filter(line => /^\s*at /.test(line));
	const outer = frames.slice(-3).join('\n');
	// The nearest cause first: a listener an emitter called from a timer failed as a listener.
	if (frames.some(line => /\bemit \(node:events/.test(line))) return 'an event listener';
	if (/listOnTimeout|processTimers/.test(outer)) return 'a timer callback';
	if (/processImmediate/.test(outer)) return 'a setImmediate callback';
	if (/processTicksAndRejections/.test(outer)) return 'a promise callback';
	return '';
}

/** How a stack frame names code under `path`: the file (followed by its position or a reload's query) or what a folder holds. */
function pathMarks(path: string, folder: boolean): string[] {
	const url = pathToFileURL(path).href;
	return folder ? [`${path}${sep}`, `${url}/`] : [`${path}:`, `${url}:`, `${url}?`];
}
