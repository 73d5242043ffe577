import {pathToFileURL} from 'node:url';
import type {EmitEvent} from '../core/events.js';

/**
 * While extensions are loaded, an unhandled rejection is reported as a
 * warning naming the extension its stack points into, never a crash
 * (spec/extensions.md §1; issue 14). One whose stack names no extension is still
 * reported, not thrown: with extension code in the process it may be theirs
 * (a rejected promise made of a plain value has no stack at all).
 * Returns the function that stops listening.
 */
export function reportExtensionRejections(extensions: ReadonlyMap<string, string>, emit: EmitEvent): () => void {
	if (extensions.size === 0) return () => {};
	const places = [...extensions].map(([name, path]) => ({name, path, url: pathToFileURL(path).href}));
	const listener = (reason: unknown) => {
		const stack = reason instanceof Error ? (reason.stack ?? '') : '';
		const owner = places.find(place => stack.includes(place.url) || stack.includes(place.path));
		const message = reason instanceof Error ? reason.message : String(reason);
		emit({type: 'warning', message: owner ? `extension ${owner.name}: an unhandled rejection: ${message}` : `an unhandled rejection, perhaps from an extension: ${message}`});
	};

	process.on('unhandledRejection', listener);
	return () => process.off('unhandledRejection', listener);
}
