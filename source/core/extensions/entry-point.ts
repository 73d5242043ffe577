import {stat} from 'node:fs/promises';
import {basename, extname, join, resolve} from 'node:path';
import * as z from 'zod/mini';
import {readJsonFile} from '../plugins/read-json-file.js';

/** What one candidate loads: its module file and the name that decides "first found wins". */
export interface EntryPoint {
	/** The module to import, absolute. */
	file: string;
	/** The package's `name`, or the file's name without its extension. */
	name: string;
}

/** The host loads built JavaScript only (no transpiling at start); a TypeScript entry is refused with the fix. */
const scriptExtensions = new Set(['.js', '.mjs', '.cjs']);
const sourceExtensions = new Set(['.ts', '.mts', '.cts', '.tsx', '.jsx']);

const exportTarget: z.ZodMiniType<unknown> = z.union([z.string(), z.record(z.string(), z.unknown())]);
const packageSchema = z.looseObject({
	name: z.optional(z.string()),
	main: z.optional(z.string()),
	exports: z.optional(z.union([exportTarget, z.array(z.unknown())])),
});

/**
 * The module a candidate names: a script file itself, or a package folder's
 * entry from its `package.json` (`exports["."]` with the `import` or
 * `default` condition, else `main`), else its `index.js` / `index.mjs`.
 * Throws an Error whose message says what is wrong and how to fix it.
 */
export async function resolveEntryPoint(path: string): Promise<EntryPoint> {
	const stats = await stat(path).catch((error: NodeJS.ErrnoException) => {
		throw new Error(error.code === 'ENOENT' ? 'no such file or folder' : `cannot read it (${error.code ?? error.message})`);
	});
	if (stats.isFile()) {
		checkScript(path);
		return {file: path, name: basename(path, extname(path))};
	}

	if (!stats.isDirectory()) throw new Error('neither a file nor a folder');
	const manifestPath = join(path, 'package.json');
	const data = await readJsonFile(manifestPath, `package ${manifestPath}`);
	if (data !== undefined) {
		const parsed = packageSchema.safeParse(data);
		if (!parsed.success) throw new Error(`${manifestPath}: "name", "main" and "exports" must be strings or export maps`);
		const target = packageEntry(parsed.data.exports) ?? parsed.data.main;
		const name = parsed.data.name ?? basename(path);
		if (target !== undefined) {
			const file = resolve(path, target);
			checkScript(file);
			await stat(file).catch(() => {
				throw new Error(`${manifestPath} names ${target} as its entry, which does not exist; build the package first`);
			});
			return {file, name};
		}

		return {file: await indexFile(path), name};
	}

	return {file: await indexFile(path), name: basename(path)};
}

/** The `.` export: a string, or the `import`/`default` condition, nested conditions followed. */
export function packageEntry(exports: unknown): string | undefined {
	if (typeof exports === 'string') return exports;
	if (exports === null || typeof exports !== 'object' || Array.isArray(exports)) return undefined;
	const map = exports as Record<string, unknown>;
	const keys = Object.keys(map);
	// A map of subpaths ("." and "./x") or of conditions ("import", "default").
	const root = keys.some(key => key.startsWith('.')) ? map['.'] : map;
	if (typeof root === 'string') return root;
	if (root === null || typeof root !== 'object' || Array.isArray(root)) return undefined;
	const conditions = root as Record<string, unknown>;
	for (const condition of ['import', 'node', 'default']) {
		const value = conditions[condition];
		const found = typeof value === 'string' ? value : packageEntry(value);
		if (found !== undefined) return found;
	}

	return undefined;
}

async function indexFile(folder: string): Promise<string> {
	for (const name of ['index.js', 'index.mjs']) {
		const file = join(folder, name);
		if ((await stat(file).catch(() => undefined))?.isFile()) return file;
	}

	throw new Error('a folder without package.json "exports" or "main" and without index.js');
}

function checkScript(file: string): void {
	const extension = extname(file);
	if (scriptExtensions.has(extension)) return;
	if (sourceExtensions.has(extension)) {
		throw new Error(`${basename(file)} is source code; i loads built JavaScript only: build it first, e.g. with esbuild or tsc`);
	}

	throw new Error(`${basename(file)} is not a JavaScript module (.js, .mjs or .cjs)`);
}
