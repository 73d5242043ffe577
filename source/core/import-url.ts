/**
 * `import()` of a module by its absolute URL (an extension's file, an
 * extension's esbuild): every dynamic import of code that is not part of
 * `i` goes through here. In the one-file headless bundle this module is
 * scripts/headless-import.cjs, which imports from outside the bundle's
 * compiled code: on Node 20 that code may come from a V8 code cache
 * (bin/code-cache.js), and node finds no module loader for an import() in
 * code that came from one.
 */
export async function importUrl(url: string): Promise<unknown> {
	return import(url);
}
