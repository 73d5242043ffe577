import {readFile, stat} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

/** i's own package name: its folder is the nearest above this module with that package.json. */
const PACKAGE_NAME = 'i-agent';
/** How far up the folders a look for it goes (a checkout, its build, an installed copy are a few levels). */
const MAX_DEPTH = 8;
/** The provider package's folder inside i's (DESIGN's layout), shipped with it (package.json "files"). */
export const PROVIDER_PACKAGE_FOLDER = 'providers';

let found: Promise<string | undefined> | undefined;

/**
 * The provider package that ships inside `i` (deepseek, openrouter,
 * llama-cpp, proxy): loaded by default after every source the person
 * names, so theirs win a name clash. Undefined when this copy of `i` has
 * none (a build that left it out): the run goes on with the built-ins.
 */
export async function bundledProviderPackage(): Promise<string | undefined> {
	found ??= look(fileURLToPath(import.meta.url));
	return found;
}

async function look(from: string): Promise<string | undefined> {
	let folder = dirname(from);
	for (let depth = 0; depth < MAX_DEPTH; depth++) {
		const manifest = await readFile(join(folder, 'package.json'), 'utf8').then(
			text => JSON.parse(text) as {name?: unknown},
			() => undefined,
		);
		if (manifest?.name === PACKAGE_NAME) {
			const path = join(folder, PROVIDER_PACKAGE_FOLDER);
			return (await stat(join(path, 'package.json')).catch(() => undefined))?.isFile() ? path : undefined;
		}

		const parent = dirname(folder);
		if (parent === folder) break;
		folder = parent;
	}

	return undefined;
}

/** The folder of the provider package that ships inside `i` when its package.json name is `name`; undefined otherwise (another package, or a copy of `i` without it). */
export async function bundledPackageNamed(name: string): Promise<string | undefined> {
	const folder = await bundledProviderPackage();
	if (folder === undefined) return undefined;
	const manifest = await readFile(join(folder, 'package.json'), 'utf8').then(
		text => JSON.parse(text) as {name?: unknown},
		() => undefined,
	);
	return manifest?.name === name ? folder : undefined;
}
