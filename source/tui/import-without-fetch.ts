/**
 * Imports a module while the global `fetch` is hidden, then puts it back.
 *
 * Ink's layout engine is yoga compiled to WebAssembly, inlined as a data:
 * URL. Its loader fetches that URL whenever `fetch` exists, and Node's
 * `fetch` is a lazy getter that loads all of undici on first touch (about
 * 40 ms here, before the first frame). Without `fetch` the loader decodes
 * the inline bytes itself. Only the property descriptor is saved and
 * restored, so undici still loads only if something really fetches later.
 */
export async function importWithoutFetch<T>(load: () => Promise<T>): Promise<T> {
	const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
	if (!descriptor?.configurable) return load();
	Object.defineProperty(globalThis, 'fetch', {value: undefined, configurable: true, writable: true});
	try {
		return await load();
	} finally {
		Object.defineProperty(globalThis, 'fetch', descriptor);
	}
}
