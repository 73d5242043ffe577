import {TurnError} from '../errors.js';
import type {ManifestHook, WorkerPool} from '../pool/types.js';
import type {LifecycleEvent} from './event-names.js';

/** A hook failed: its worker broke the protocol, timed out, or answered with an error frame. */
export class HookError extends TurnError {
	override name = 'HookError';
	constructor(
		message: string,
		readonly event: LifecycleEvent,
	) {
		super(message);
	}
}

/**
 * Checks one hook's answer before the next hook or the core uses it, and
 * throws when it cannot be used. `hook` names the hook that gave it (`before_turn
 * hook of the memory module (manifest)`), so the error blames that hook, not
 * whichever came last in the chain.
 */
export type AnswerCheck = (answer: Record<string, unknown>, hook: string) => void;

export interface HookRunOptions {
	/** An abort stops the running hook's worker. */
	signal?: AbortSignal | undefined;
	check?: AnswerCheck | undefined;
	/** Hears the warnings a hook's answer carries (spec/platform.md §2), each naming the module or worker that gave it. */
	warn?: ((message: string) => void) | undefined;
}

/** The hooks' warnings a chain keeps for /context: the latest, `i`'s own bound. */
export const MAX_KEPT_WARNINGS = 20;

export interface HookChain {
	/** Whether any hook listens to `event`: callers skip building data nobody reads. */
	has(event: LifecycleEvent): boolean;
	/**
	 * Runs the hooks for `event` in manifest order, each receiving the full
	 * `data` the previous one returned (spec/platform.md §6), and returns the last. With
	 * no hooks it returns `data` itself. Each answer goes through `check`
	 * before the next hook gets it.
	 */
	run(event: LifecycleEvent, data: Record<string, unknown>, options?: HookRunOptions): Promise<Record<string, unknown>>;
	/** The warnings the hooks gave in this run (each once, the latest last, at most MAX_KEPT_WARNINGS): what /context lists. */
	warnings(): readonly string[];
}

export const emptyHookChain: HookChain = {
	has: () => false,
	run: async (_event, data) => data,
	warnings: () => [],
};

export function createHookChain(hooks: readonly ManifestHook[], pool: WorkerPool): HookChain {
	if (hooks.length === 0) return emptyHookChain;
	const listening = (event: LifecycleEvent) => hooks.filter(hook => hook.events.includes(event) || hook.events.includes('*'));
	const cache = new Map<LifecycleEvent, ManifestHook[]>();
	const hooksFor = (event: LifecycleEvent) => {
		let found = cache.get(event);
		if (!found) {
			found = listening(event);
			cache.set(event, found);
		}

		return found;
	};

	const kept: string[] = [];
	const keep = (message: string) => {
		const at = kept.indexOf(message);
		if (at !== -1) kept.splice(at, 1);
		kept.push(message);
		if (kept.length > MAX_KEPT_WARNINGS) kept.shift();
	};

	return {
		has: event => hooksFor(event).length > 0,
		async run(event, data, {signal, check, warn} = {}) {
			let current = data;
			for (const hook of hooksFor(event)) {
				const who = hook.module ? `the ${hook.module} module` : JSON.stringify(hook.worker.exec);
				const label = `${event} hook of ${who} (${hook.manifest})`;
				const heard = (warning: string) => {
					const message = `${who}: ${warning}`;
					keep(message);
					warn?.(message);
				};

				try {
					current = await pool.call(hook.worker, event, current, {...(signal ? {signal} : {}), ...(hook.module === undefined ? {} : {module: hook.module}), warn: heard});
				} catch (error) {
					throw new HookError(`${label} failed: ${(error as Error).message}`, event);
				}

				check?.(current, label);
			}

			return current;
		},
		warnings: () => [...kept],
	};
}
