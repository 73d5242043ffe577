import {mkdir, readdir, stat, symlink} from 'node:fs/promises';
import {dirname, join} from 'node:path';

/** A folder link on Windows needs no rights as a junction. */
const folderLink = process.platform === 'win32' ? 'junction' : 'dir';

/**
 * Gives a staged copy the dependencies its package has: `<copy>/node_modules`
 * shows what Node would find from the package folder itself, its own
 * node_modules and then each parent's (an npm workspace hoists most of them
 * to its root). One such folder is linked as it is; several are merged into
 * a folder of links, the nearest first for each name (`@scope/name` per
 * name), as Node's lookup finds them. Nothing is copied.
 */
export async function linkDependencies(packageFolder: string, copy: string): Promise<void> {
	const found: string[] = [];
	for (let folder = packageFolder; ; folder = dirname(folder)) {
		const candidate = join(folder, 'node_modules');
		if ((await stat(candidate).catch(() => undefined))?.isDirectory()) found.push(candidate);
		if (dirname(folder) === folder) break;
	}

	const target = join(copy, 'node_modules');
	if (found.length === 0) return;
	if (found.length === 1) {
		await symlink(found[0]!, target, folderLink);
		return;
	}

	await mkdir(target);
	const linked = new Set<string>();
	for (const folder of found) {
		for (const name of await names(folder)) {
			if (!name.startsWith('@')) {
				if (!linked.has(name)) await symlink(join(folder, name), join(target, name), folderLink);
				linked.add(name);
				continue;
			}

			for (const inner of await names(join(folder, name))) {
				const scoped = `${name}/${inner}`;
				if (linked.has(scoped)) continue;
				linked.add(scoped);
				await mkdir(join(target, name), {recursive: true});
				await symlink(join(folder, name, inner), join(target, name, inner), folderLink);
			}
		}
	}
}

/** A node_modules folder's packages: hidden entries (`.bin`, `.package-lock.json`) are npm's own. */
async function names(folder: string): Promise<string[]> {
	return (await readdir(folder).catch(() => [])).filter(name => !name.startsWith('.')).sort();
}
