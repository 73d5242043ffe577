import {pathToFileURL} from 'node:url';
import {EXTENSION_API_MAJOR, EXTENSION_API_VERSION, type ExtensionApi, type ExtensionModule} from './api.js';
import {describeThrown} from './describe-thrown.js';
import {importUrl} from '../import-url.js';
import type {EntryPoint} from './entry-point.js';
import {syntaxErrorPlace} from './syntax-error-place.js';

/** What an extension module gives the host to call: its `register`. */
export type RegisterFunction = (api: ExtensionApi) => unknown;

/**
 * Imports an extension's module and checks what the host needs before it
 * calls anything: a `register` function (the default export, or one named
 * `register`) and an `apiVersion`, when it exports one, of this API's major.
 * Importing runs the module's top-level code; the caller decides whether
 * that code may run (spec/extensions.md §8). Throws an Error whose message
 * says what is wrong (after "extension PATH …" / "was not loaded: ").
 * `compiledIn` gives the module instead of its file, checked the same way.
 */
export async function importExtension(entry: EntryPoint, generation = 0, compiledIn?: () => Promise<ExtensionModule>): Promise<RegisterFunction> {
	let module: ExtensionModule;
	// Node keeps an ES module by its URL for the life of the process: a reload (/reload) imports the file again under a URL of its own.
	const url = pathToFileURL(entry.file);
	if (generation > 0) url.search = `generation=${generation}`;
	try {
		// The same module compiled into this program (compiled-providers.ts): no file to import, and nothing to reload.
		module = compiledIn ? await compiledIn() : ((await importUrl(url.href)) as ExtensionModule);
	} catch (error) {
		const place = error instanceof SyntaxError && !compiledIn ? await syntaxErrorPlace(error, entry.file) : null;
		if (place) throw new Error(`cannot be loaded: a syntax error at ${place.file}:${place.line}:${place.column}: ${error instanceof Error ? error.message : ''}`);
		throw new Error(`cannot be loaded: ${describeThrown(error)}`);
	}

	const register = typeof module.default === 'function' ? module.default : module.register;
	if (typeof register !== 'function') throw new Error('exports no register function (export default function register(api) { … })');
	if (module.apiVersion !== undefined && String(module.apiVersion).split('.')[0] !== EXTENSION_API_MAJOR) {
		throw new Error(`is written for extension API ${String(module.apiVersion)}; this i has API ${EXTENSION_API_VERSION}`);
	}

	return register;
}
