import type {PlatformDirs} from '../config/dirs.js';
import type {ResourceFolders} from '../resources/resource-folders.js';
import type {SandboxGrant} from '../sandbox/sandbox-entry.js';

/**
 * A worker process as a manifest names it, resolved: `exec[0]` is an absolute
 * program path (looked up on PATH or against `cwd`), `cwd` a canonical folder.
 * The pool keeps one resident process per (exec, cwd).
 */
export interface WorkerSpec {
	exec: string[];
	cwd: string;
	/** The worker asked for the sandbox: the folders it may write besides the temporary folder, the hosts it may reach. */
	sandbox?: SandboxGrant;
	/** bubblewrap and its arguments up to `--` (and the proxy's bridge), put before `exec` when the worker starts (plugins/sandbox-workers.ts fills it in at load). */
	wrapper?: string[];
	/**
	 * The worker reads and writes prefix-reuse frames (prefix-reuse.ts): its
	 * manifest entries say `"prefix_reuse": true`. Every entry of one
	 * (exec, cwd) must agree.
	 */
	prefixReuse?: boolean;
}

/**
 * The platform context every request frame carries at top level (spec/platform.md §3):
 * the workspace, its stable ID and the four folders; and, when the run
 * names any beyond the workspace's own, the skill and prompt folders
 * (resource-folders.ts).
 */
export interface RequestContext {
	workspace: string;
	workspace_id: string;
	paths: PlatformDirs;
	resources?: ResourceFolders;
}

export interface CallOptions {
	/** The whole call: serialisation, the write and the wait (spec/platform.md §2: 15 s). */
	timeoutMs?: number;
	/** Cancels the call: a queued one is dropped, a running one stops its worker. */
	signal?: AbortSignal;
	/**
	 * The module of the manifest entry the call is for, sent at the top of
	 * the frame: a worker serving several modules (the official host)
	 * dispatches on it.
	 */
	module?: string;
	/** Hears the `warnings` the answer carries (spec/platform.md §2), each before the call resolves; without it they are dropped. */
	warn?: (message: string) => void;
}

/** Calls into resident NDJSON workers (spec/platform.md §2). */
export interface WorkerPool {
	/**
	 * Sends one request frame and resolves with the response's `data` object.
	 * Any failure once the request is written (an error frame included)
	 * evicts the worker; a request too large to send leaves it in place.
	 */
	call(spec: WorkerSpec, event: string, data: Record<string, unknown>, options?: CallOptions): Promise<Record<string, unknown>>;
	/**
	 * Starts the worker for `spec` now, if none runs, without a call: its
	 * start-up overlaps whatever the caller does before the first call. A
	 * start that fails is reported by that call.
	 */
	start(spec: WorkerSpec): void;
	/**
	 * The skill and prompt folders the frames carry from the next request on
	 * (undefined: none, each module uses the workspace's own). Set at start
	 * once the extensions said theirs, and again by a reload.
	 */
	setResources(resources: ResourceFolders | undefined): void;
	/** Ends every worker (its whole process group). Idempotent. */
	close(): Promise<void>;
}

export type WorkerFailureKind =
	| 'spawn' // could not start
	| 'exit' // the process ended (before or during a call)
	| 'timeout' // the call took longer than its limit
	| 'protocol' // a frame broke the protocol: not JSON, wrong ID, data not an object, too large, output outside a call
	| 'error' // the worker answered with an error frame
	| 'aborted'; // the caller cancelled the call (an interrupt)

/** A call failed. `message` names the worker (its argv and cwd) and what happened. */
export class WorkerError extends Error {
	override name = 'WorkerError';
	/** What went wrong, without the worker's command line: what a tool's failure tells the model and the person. */
	readonly reason: string;
	constructor(
		message: string,
		readonly kind: WorkerFailureKind,
		reason?: string,
	) {
		super(message);
		this.reason = reason ?? message;
	}
}

/** A tool an external manifest declares. Only name, description and parameters reach the model. */
export interface ManifestTool {
	name: string;
	description: string;
	parameters: Record<string, unknown>;
	worker: WorkerSpec;
	/** The module it belongs to, for identification, bindings and the request frame's `module`; never sent to the model. */
	module?: string;
	/** The manifest file it came from, for messages. */
	manifest: string;
	/** Who provides it, for approvals (tool-owner.ts), when not the manifest's own worker: an official module, or one bound in bindings.json. */
	owner?: string;
}

export interface ManifestHook {
	/** Lifecycle event names, or `*` for all. */
	events: string[];
	worker: WorkerSpec;
	/** As ManifestTool's: sent as the request frame's `module`. */
	module?: string;
	manifest: string;
}

/** Everything the configured manifests declare, in manifest order. */
export interface LoadedPlugins {
	tools: ManifestTool[];
	hooks: ManifestHook[];
	/** The provider worker binding, or null for the built-in HTTP adapters. */
	provider: WorkerSpec | null;
	/** Stops what the load started for the workers (sandboxed workers' domain proxies); the pool's close calls it. */
	release?: () => Promise<void>;
}
