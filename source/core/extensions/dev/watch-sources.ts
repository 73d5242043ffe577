import {watch, type FSWatcher} from 'node:fs';
import {readdir, stat} from 'node:fs/promises';
import {basename, dirname, join, relative, sep} from 'node:path';

/** One watch per folder; a package with more source folders than this is watched in its first ones, and told so. */
export const MAX_WATCHED_FOLDERS = 2000;

export interface WatchOptions {
	/** The package folder, watched with every sub-folder that is not ignored. */
	root: string;
	/** Paths relative to `root` (`/`-separated) that are no sources: never watched, their changes never reported. */
	ignore(relativePath: string): boolean;
	/** Single files outside `root` to watch too (an npm workspace root's package.json and lock file). */
	files?: readonly string[];
	/** A source changed: its absolute path. */
	onChange(path: string): void;
	/** Something could not be watched: said once, watching goes on. */
	onProblem(message: string): void;
}

export interface SourceWatcher {
	close(): void;
}

/**
 * Watches a package's sources: one fs.watch per folder, walked here, so the
 * ignored folders (node_modules above all) are never entered. Node 20's
 * recursive fs.watch on Linux walks the whole tree, node_modules included,
 * with a watch per file, and reports every file as changed when it starts.
 * A folder made later is walked and watched when it appears. The watches
 * never keep the process alive on their own.
 */
export async function watchSources(options: WatchOptions): Promise<SourceWatcher> {
	const watchers = new Map<string, FSWatcher>();
	let closed = false;
	let full = false;

	const relativeOf = (path: string) => relative(options.root, path).split(sep).join('/');

	const watchFolder = async (folder: string): Promise<void> => {
		if (closed || watchers.has(folder)) return;
		if (folder !== options.root && options.ignore(relativeOf(folder))) return;
		if (watchers.size >= MAX_WATCHED_FOLDERS) {
			if (!full) options.onProblem(`${options.root} has more than ${MAX_WATCHED_FOLDERS} source folders; changes in the others are not seen`);
			full = true;
			return;
		}

		let watcher: FSWatcher;
		try {
			watcher = watch(folder, {persistent: false}, (_event, name) => {
				const path = name ? join(folder, name.toString()) : folder;
				if (path !== options.root && options.ignore(relativeOf(path))) return;
				options.onChange(path);
				// A new folder (made, or moved in) is walked and watched as well.
				if (name)
					void stat(path).then(
						stats => (stats.isDirectory() ? watchFolder(path) : undefined),
						() => forget(path),
					);
			});
		} catch (error) {
			options.onProblem(`cannot watch ${folder} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
			return;
		}

		// A folder removed ends its watch with an error on some systems.
		watcher.on('error', () => forget(folder));
		watchers.set(folder, watcher);
		const entries = await readdir(folder, {withFileTypes: true}).catch(() => []);
		for (const entry of entries) if (entry.isDirectory()) await watchFolder(join(folder, entry.name));
	};

	/** A folder gone: its watch and those below it end. */
	const forget = (path: string) => {
		for (const [folder, watcher] of watchers) {
			if (folder === path || folder.startsWith(path + sep)) {
				watcher.close();
				watchers.delete(folder);
			}
		}
	};

	await watchFolder(options.root);
	const fileWatchers: FSWatcher[] = [];
	// A file is watched through its folder: editors replace files by renaming, which ends a watch on the file itself.
	for (const [folder, names] of groupByFolder(options.files ?? [])) {
		try {
			const watcher = watch(folder, {persistent: false}, (_event, name) => {
				if (name && names.has(name.toString())) options.onChange(join(folder, name.toString()));
			});
			watcher.on('error', () => {});
			fileWatchers.push(watcher);
		} catch (error) {
			options.onProblem(`cannot watch ${folder} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
		}
	}

	return {
		close() {
			closed = true;
			for (const watcher of [...watchers.values(), ...fileWatchers]) watcher.close();
			watchers.clear();
		},
	};
}

function groupByFolder(files: readonly string[]): Map<string, Set<string>> {
	const groups = new Map<string, Set<string>>();
	for (const file of files) {
		const names = groups.get(dirname(file)) ?? new Set<string>();
		names.add(basename(file));
		groups.set(dirname(file), names);
	}

	return groups;
}
