import {resolveEntryPoint, type EntryPoint} from './entry-point.js';
import {importExtension} from './import-extension.js';
import {TimedOut, withinTime} from './within-time.js';
import {REGISTER_TIMEOUT_MS} from './load-extensions.js';

/** A module whose top-level code has not finished loading by then would hold up every start as well. */
export const CHECK_IMPORT_TIMEOUT_MS = REGISTER_TIMEOUT_MS;

export interface PackageCheck {
	entry: EntryPoint;
	/** Whether the module was imported and found to export a `register` of this API's major; false when its code may not run. */
	imported: boolean;
}

/**
 * Whether the package folder at `path` loads as an extension, by the
 * loader's own checks: its entry point (built JavaScript that exists), and,
 * when its code may run (`runCode`), the module imported with a `register`
 * export of this API's major. `register` itself is not called. Throws an
 * Error saying what is wrong.
 */
export async function checkExtensionPackage(path: string, runCode: boolean): Promise<PackageCheck> {
	const entry = await resolveEntryPoint(path);
	if (!runCode) return {entry, imported: false};
	try {
		await withinTime(importExtension(entry), CHECK_IMPORT_TIMEOUT_MS);
	} catch (error) {
		if (error instanceof TimedOut) throw new Error(`did not finish loading within ${CHECK_IMPORT_TIMEOUT_MS / 1000} s`);
		throw error;
	}

	return {entry, imported: true};
}
