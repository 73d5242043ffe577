import {errorMessage} from '../errors.js';
import type {EmitEvent} from '../events.js';
import type {EventBus} from '../extensions/event-bus.js';
import type {RuntimeServices} from '../extensions/runtime-link.js';
import {settledWithin} from '../extensions/within-time.js';
import type {LoadedPlugins, WorkerPool} from '../pool/types.js';
import {loadResources, type ResourceOptions} from './load-resources.js';
import {moduleFolders, type ModuleFolders} from './module-folders.js';
import type {ResourceFolder, ResourceFolders} from '../resources/resource-folders.js';
import {startExtensions, type ExtensionOptions, type StartContext, type StartedExtensions} from './start-extensions.js';

/** At the end, observers still queued get this long to take their events; a slow one is not waited for. */
export const SHUTDOWN_DRAIN_MS = 1000;

/** One generation of extensions as the agent uses it: what they registered, and the head's emit with their observers. */
interface Generation {
	started: StartedExtensions;
	emit: EmitEvent;
	/** The folders the skills and prompts modules search; null for a kind no module reads. */
	folders: ModuleFolders;
	/** The folders the chat screen finds themes in, first first. */
	themes: readonly ResourceFolder[];
}

/** What a generation needs from the run around it. */
export interface GenerationContext {
	options: ExtensionOptions & ResourceOptions;
	start: StartContext;
	plugins: LoadedPlugins;
	pool: WorkerPool | null;
	/** The head's emit (a one-shot's starts its MCP servers at the first tool call): each generation's observers wrap it. */
	toHead: EmitEvent;
	/** A new generation's emit, for what emits outside turns (the extensions' deliveries). */
	onEmit: (emit: EmitEvent) => void;
}

/**
 * The loaded extensions, one generation at a time: /reload loads the next
 * and, once the agent takes it, the old one hears SessionShutdown and the
 * new one SessionStart (both with reason `reload`). The runtime services
 * the core and the head lend (`api.runtime`) are kept across generations:
 * the new one gets the same services, the old one's actions refuse as stale.
 */
export class ExtensionGenerations {
	readonly #context: GenerationContext;
	readonly #services: RuntimeServices = {};
	#current: Generation;
	/** 0 at start, one more for each /reload: the modules are imported again. */
	#count = 0;

	private constructor(context: GenerationContext, first: Generation) {
		this.#context = context;
		this.#current = first;
	}

	/** The start's generation: its folders are set once its resources are found (setResourceFolders). */
	static async first(context: GenerationContext, started: StartedExtensions): Promise<ExtensionGenerations> {
		return new ExtensionGenerations(context, {started, emit: await withObservers(started.events, context.toHead), folders: {skills: null, prompts: null}, themes: []});
	}

	get started(): StartedExtensions {
		return this.#current.started;
	}

	get events(): EventBus | null {
		return this.#current.started.events;
	}

	get emit(): EmitEvent {
		return this.#current.emit;
	}

	get folders(): ModuleFolders {
		return this.#current.folders;
	}

	get themeFolders(): readonly ResourceFolder[] {
		return this.#current.themes;
	}

	/** The skill, prompt and theme folders of the resources found for this generation. */
	setResourceFolders(folders: ResourceFolders | undefined, themes: readonly ResourceFolder[]): void {
		this.#current.folders = moduleFolders(folders, this.#context.start.workspace, this.#context.plugins);
		this.#current.themes = themes;
	}

	/** Lends the extensions' `api.runtime` actions a service: set-up provides what the core can do, the head what only it can. */
	provide(services: RuntimeServices): void {
		Object.assign(this.#services, services);
		this.#current.started.runtime.provide(this.#services);
	}

	/**
	 * Loads every extension again, from `extensions` instead of the start's
	 * paths when given (i dev's new build). Nothing of it runs until `take`;
	 * any extension that fails keeps the loaded generation whole (spec/extensions.md §7).
	 */
	async load(extensions: readonly string[] | undefined): Promise<{ok: true; next: StartedExtensions} | {ok: false; problems: string[]}> {
		this.#count += 1;
		const {options, start} = this.#context;
		let next: StartedExtensions;
		try {
			next = await startExtensions(extensions === undefined ? options : {...options, extensions}, start, this.#count);
		} catch (error) {
			return {ok: false, problems: [errorMessage(error)]};
		}

		if (next.failed > 0) return {ok: false, problems: next.warnings};
		return {ok: true, next};
	}

	/**
	 * The next generation becomes the loaded one: the old one drains and
	 * hears SessionShutdown, its runtime link closes; the new one gets the
	 * services, its observers on the head's events, its resource folders
	 * (to the modules from the next request on) and SessionStart. Returns
	 * what the new resources said.
	 */
	async take(next: StartedExtensions, session: {id: string; path: string}): Promise<string[]> {
		const old = this.#current.started;
		await this.#shutdown(old.events, 'reload', session.id);
		old.runtime.close();
		next.runtime.provide(this.#services);
		const emit = await withObservers(next.events, this.#context.toHead);
		this.#current = {started: next, emit, folders: this.#current.folders, themes: this.#current.themes};
		this.#context.onEmit(emit);
		const warnings: string[] = [];
		const {options, start, pool} = this.#context;
		const found = await loadResources('reload', options, {
			workspace: start.workspace,
			configDir: start.dirs.config_dir,
			settings: next.settings,
			discoverers: next.discoverers,
			events: next.events,
			report: message => warnings.push(message),
		});
		warnings.push(...found.warnings);
		pool?.setResources(found.folders);
		this.setResourceFolders(found.folders, found.themes);
		await next.events?.advisory('SessionStart', {reason: 'reload', sessionId: session.id, path: session.path, cwd: start.workspace});
		return warnings;
	}

	/** The run ends: what the observers still have queued comes first, the shutdown is the last thing they hear. */
	async close(sessionId: string): Promise<void> {
		await this.#shutdown(this.#current.started.events, 'exit', sessionId);
		this.#current.started.runtime.close();
	}

	async #shutdown(events: EventBus | null, reason: 'reload' | 'exit', sessionId: string): Promise<void> {
		if (!events) return;
		await settledWithin(events.drained(), SHUTDOWN_DRAIN_MS);
		await events.advisory('SessionShutdown', {reason, sessionId});
	}
}

/** The head's emit, also feeding the extensions' observers when there are any. */
async function withObservers(events: EventBus | null, headEmit: EmitEvent): Promise<EmitEvent> {
	return events ? (await import('../lifecycle/observe-core-events.js')).observeCoreEvents(events, headEmit) : headEmit;
}
