/**
 * The contract between `i dev` (which builds, stages and watches an
 * extension package: dev/create-dev-loop.ts) and the chat screen (which
 * loads the staged builds and reloads on each new one). Types only, so both
 * sides compile against it without loading the other.
 */

/** What `i dev` hands the chat screen: the staged build to load, and later ones. */
export interface DevLoop {
	/** The versioned copy of the first successful build: an extension path to load (a folder under .i/extensions/.dev/). */
	readonly first: string;
	/** The name its builds load under (the staged package.json's): other copies of that name are left out while it runs. */
	readonly name: string;
	/** Builds again now and stages a new copy (what /reload asks for in dev mode). */
	rebuild(): Promise<DevBuild>;
	/** Called after each build the watcher started: a new staged path to reload, or the build's error (the loaded version stays). */
	onBuild(listener: (build: DevBuild) => void): () => void;
	/** Stops watching and removes the staged copies no longer loaded. */
	close(): Promise<void>;
}

export type DevBuild = {ok: true; path: string; ms: number} | {ok: false; error: string};
