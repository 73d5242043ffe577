import {createHash} from 'node:crypto';
import {readFile, stat} from 'node:fs/promises';
import {join} from 'node:path';
import {errorMessage} from '../../errors.js';
import {packageEntry, resolveEntryPoint} from '../entry-point.js';
import type {DevBuild, DevLoop} from '../dev-loop.js';
import {BuildFailedError} from './build-script.js';
import type {DevPackage} from './dev-package.js';
import {readPackageManifest, type PackageManifest} from './package-manifest.js';
import {buildAndStage, entryTopFolder} from './stage-build.js';
import {StagingArea} from './staging-area.js';
import {watchSources, type SourceWatcher} from './watch-sources.js';

/** Changes closer together than this are one edit (an editor's save is often a write, a rename and a chmod). */
export const DEBOUNCE_MS = 150;
/** Files up to this size are compared by content to tell a real change from a rewrite of the same bytes; bigger ones by size and time. */
const MAX_COMPARED_BYTES = 4 * 1024 * 1024;

export interface DevLoopOptions {
	package: DevPackage;
	/** The chat screen's workspace: the copies go to its `.i/extensions/.dev/`. */
	workspace: string;
	/** Watch the sources and rebuild on change (`--no-watch` turns it off). */
	watch: boolean;
	/** What the person should know about watching (a folder that cannot be watched, a listener that threw); the caller decides where it can be said. */
	onProblem?: (message: string) => void;
}

export interface StartedDevLoop extends DevLoop {
	/** How long the first build took, build and copy. */
	readonly firstMs: number;
}

/**
 * `i dev`'s loop: builds the package once (a failure is thrown as a
 * BuildFailedError, with nothing left behind), then, unless told not to,
 * watches its sources and builds again after each change, handing each
 * result to the onBuild listeners. Builds run one at a time; changes made
 * during a build start one more after it. A change that leaves a file's
 * bytes as they were (a build rewriting a file it owns, an editor saving an
 * unchanged buffer) starts none.
 */
export async function createDevLoop(options: DevLoopOptions): Promise<StartedDevLoop> {
	const staging = await StagingArea.open(options.workspace);
	const loop = new PackageDevLoop(options, staging);
	const first = await loop.build();
	if (!first.ok) {
		await loop.close();
		throw new BuildFailedError(first.error);
	}

	if (options.watch) {
		const manifest = (await readPackageManifest(options.package.folder))?.manifest ?? {};
		await loop.watch(manifest).catch(async (error: unknown) => {
			await loop.close();
			throw error;
		});
	}

	const {name} = await resolveEntryPoint(first.path);
	return Object.assign(loop.api(first.path, name), {firstMs: first.ms});
}

class PackageDevLoop {
	readonly #options: DevLoopOptions;
	readonly #staging: StagingArea;
	readonly #listeners = new Set<(build: DevBuild) => void>();
	/** Aborted by close: stops a build script that is running. */
	readonly #stop = new AbortController();
	/** Builds run one after another. */
	#queue: Promise<unknown> = Promise.resolve();
	#building = false;
	#closed = false;
	#watcher: SourceWatcher | undefined;
	#timer: NodeJS.Timeout | undefined;
	/** Sources changed since the last build the watcher started. */
	readonly #changed = new Set<string>();
	/** What each changed source held when a build last started for it: a content hash, or its size and time. */
	readonly #seen = new Map<string, string>();

	constructor(options: DevLoopOptions, staging: StagingArea) {
		this.#options = options;
		this.#staging = staging;
	}

	api(first: string, name: string): DevLoop {
		return {
			first,
			name,
			rebuild: async () => this.build(),
			onBuild: listener => {
				this.#listeners.add(listener);
				return () => this.#listeners.delete(listener);
			},
			close: async () => this.close(),
		};
	}

	/** One build and copy, after the ones already queued. */
	async build(): Promise<DevBuild> {
		const run = this.#queue.then(async () => this.#buildNow());
		this.#queue = run.catch(() => {});
		return run;
	}

	async watch(manifest: PackageManifest): Promise<void> {
		const pkg = this.#options.package;
		const root = pkg.workspaceRoot;
		this.#watcher = await watchSources({
			root: pkg.folder,
			ignore: notSources(pkg, manifest),
			files: root === undefined ? [] : [join(root, 'package.json'), join(root, 'package-lock.json')],
			onChange: path => this.#changedSource(path),
			onProblem: message => this.#options.onProblem?.(message),
		});
	}

	async close(): Promise<void> {
		if (this.#closed) return;
		this.#closed = true;
		clearTimeout(this.#timer);
		this.#watcher?.close();
		this.#stop.abort();
		await this.#queue;
		await this.#staging.close();
	}

	async #buildNow(): Promise<DevBuild> {
		if (this.#closed) return {ok: false, error: 'i dev has stopped: nothing is built any more'};
		this.#building = true;
		const start = performance.now();
		try {
			const path = await buildAndStage(this.#options.package, this.#staging, this.#stop.signal);
			return {ok: true, path, ms: Math.round(performance.now() - start)};
		} catch (error) {
			if (!(error instanceof BuildFailedError)) return {ok: false, error: `the build of ${this.#options.package.name} failed: ${errorMessage(error)}`};
			return {ok: false, error: error.message};
		} finally {
			this.#building = false;
			// What changed while it ran is built next.
			if (this.#changed.size > 0) this.#schedule();
		}
	}

	#changedSource(path: string): void {
		if (this.#closed) return;
		this.#changed.add(path);
		if (!this.#building) this.#schedule();
	}

	#schedule(): void {
		clearTimeout(this.#timer);
		this.#timer = setTimeout(() => void this.#watchBuild(), DEBOUNCE_MS);
	}

	async #watchBuild(): Promise<void> {
		if (this.#closed || this.#building) return;
		const paths = [...this.#changed];
		this.#changed.clear();
		let changed = false;
		for (const path of paths) {
			const now = await fingerprint(path);
			if (this.#seen.get(path) !== now) changed = true;
			this.#seen.set(path, now);
		}

		if (!changed || this.#closed) return;
		const build = await this.build();
		if (this.#closed) return;
		for (const listener of this.#listeners) {
			try {
				listener(build);
			} catch (error) {
				this.#options.onProblem?.(`a listener of i dev's builds failed: ${errorMessage(error)}`);
			}
		}
	}
}

/**
 * The paths the watcher leaves alone: node_modules, hidden entries (.git,
 * .i with the staged copies, editors' swap files), editors' backups and
 * test files (`x~`, vim's `4913`), TypeScript's build info, and a build
 * script's own output (the entry's top folder, or the entry file at the
 * top), which would otherwise start the next build.
 */
export function notSources(pkg: DevPackage, manifest: PackageManifest): (relativePath: string) => boolean {
	const outputs = new Set<string>();
	if (pkg.build.kind === 'script') {
		const top = entryTopFolder(manifest);
		const target = packageEntry(manifest.exports) ?? manifest.main;
		if (top !== undefined) outputs.add(top);
		else if (target === undefined) for (const name of ['index.js', 'index.mjs']) outputs.add(name);
		else outputs.add(target.replace(/^\.\//, ''));
	}

	return relativePath => {
		const segments = relativePath.split('/');
		const name = segments.at(-1) ?? '';
		if (segments.some(segment => segment === 'node_modules' || segment.startsWith('.'))) return true;
		if (name.endsWith('~') || name === '4913' || name.endsWith('.tsbuildinfo')) return true;
		return outputs.has(segments[0]!) || outputs.has(relativePath);
	};
}

async function fingerprint(path: string): Promise<string> {
	const stats = await stat(path).catch(() => undefined);
	if (!stats) return 'gone';
	if (!stats.isFile()) return stats.isDirectory() ? 'folder' : 'other';
	if (stats.size > MAX_COMPARED_BYTES) return `${stats.size}:${stats.mtimeMs}`;
	const bytes = await readFile(path).catch(() => undefined);
	return bytes === undefined ? 'gone' : createHash('sha1').update(bytes).digest('hex');
}
