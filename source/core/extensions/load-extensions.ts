import {
	EXTENSION_API_VERSION,
	type Declaration,
	type EntryRenderer,
	type ExtensionApi,
	type ExtensionCommand,
	type ExtensionRuntime,
	type ExtensionTool,
	type MarkdownTransformer,
	type MessageRenderer,
	type Platform,
} from './api.js';
import {builtinCommandNames, checkCommand, checkMarkdownTransformer, checkRenderer} from './check-command.js';
import {compiledProviders} from './compiled-providers.js';
import {resolveEntryPoint} from './entry-point.js';
import {importExtension, type RegisterFunction} from './import-extension.js';
import {checkExtensionTool} from './check-tool.js';
import {describeThrown} from './describe-thrown.js';
import type {ExtensionCandidate} from './sources.js';
import {ABORT, type EventHandler} from './event-bus.js';
import {eventTags, isEventTag, type EventTag} from './event-tags.js';
import {ExtensionFlags, type FlagSpec} from './cli-flags.js';
import {TimedOut, withinTime} from './within-time.js';
import {dialogBinding, invocationOf, RuntimeLink} from './runtime-link.js';
import {checkProvider, type CheckedProvider} from './check-provider.js';
import {checkCatalogue, type CheckedCatalogueEntry} from './check-catalogue.js';

/** EXTENSIONS.md: a `register` that takes longer fails only its extension. */
export const REGISTER_TIMEOUT_MS = 10_000;

const platforms = new Set<Platform>(['linux', 'macos', 'windows']);

/** One extension whose `register` succeeded, with what it registered. */
export interface LoadedExtension {
	name: string;
	/** The module file. */
	file: string;
	candidate: ExtensionCandidate;
	priority: number;
	/** Absent: every platform. */
	platforms: Platform[] | undefined;
	tools: ExtensionTool[];
	/** Command-line flags it added (registerFlag), by name. */
	flags: ReadonlyMap<string, FlagSpec>;
	/** Chat-screen commands it added (registerCommand), by name without the slash. */
	commands: ReadonlyMap<string, ExtensionCommand>;
	/** In registration order. */
	markdownTransformers: MarkdownTransformer[];
	/** `registerMessageRenderer` and `registerEntryRenderer`, by customType. */
	renderers: Renderers;
	/** Model providers (registerProvider, registerStreamingProvider), in registration order; a streaming one that replaced a one-shot one keeps its place. */
	providers: CheckedProvider[];
	/** Its part of the model catalogue (`declare({providers})`): only providers it registered itself, and not those another extension had first. */
	catalogue: CheckedCatalogueEntry[];
	/** What loaded but did not take effect (a provider id another extension registered first), each naming both. */
	notices: string[];
	/** Event handlers in registration order. */
	handlers: Array<{tag: EventTag; handler: EventHandler}>;
	/** `registerResourcesDiscover` handlers, in registration order. */
	discoverers: EventHandler[];
	/** `registerBeforeAgentStart` transforms, in registration order. */
	beforeAgentStart: EventHandler[];
}

export interface Renderers {
	message: ReadonlyMap<string, MessageRenderer>;
	entry: ReadonlyMap<string, EntryRenderer>;
}

/** The key a renderer of a customType is owned under: message and entry renderers of one type are two slots. */
export function rendererKey(kind: 'message' | 'entry', customType: string): string {
	return `${kind}:${customType}`;
}

export type LoadReport =
	| {kind: 'failed'; path: string; listedIn: string; message: string}
	| {kind: 'skipped-untrusted'; path: string; listedIn: string}
	| {kind: 'shadowed'; path: string; listedIn: string; name: string; by: string};

/** Why a candidate was not loaded, in one clause (after "was not loaded: "); the head adds what to do about trust. */
export function describeLoadReport(report: LoadReport): string {
	if (report.kind === 'failed') return report.message;
	if (report.kind === 'shadowed') return `an extension named "${report.name}" loaded first from ${report.by}`;
	return 'it is project code and the workspace is not trusted (pass --trust-project)';
}

export interface LoadOptions {
	candidates: readonly ExtensionCandidate[];
	/** Project code loads only when the workspace is trusted (EXTENSIONS.md "Trust"). */
	trusted: boolean;
	/** Tool names taken before any extension loads (native and worker tools), each with who has it. */
	takenToolNames: ReadonlyMap<string, string>;
	/** 0 at start, one more for each /reload: the modules are imported again, not taken from node's cache. */
	generation?: number;
	/** The command line's flags for the extensions' own (registerFlag); none given: every flag has its default. */
	flags?: ExtensionFlags;
	/** Extension names an earlier load took, each with the path it came from: later ones of a name are shadowed. */
	takenNames?: ReadonlyMap<string, string>;
	/** Slash commands an earlier load's extensions took (the chat screen's own are always taken), each with who has it. */
	takenCommandNames?: ReadonlyMap<string, string>;
	/** Renderers an earlier load's extensions took (rendererKey), each with who has it: one per customType in a host. */
	takenRenderers?: ReadonlyMap<string, string>;
	/** Provider ids an earlier load's extensions took, each with who has it. */
	takenProviderIds?: ReadonlyMap<string, string>;
	registerTimeoutMs?: number;
	/** Where the runtime actions reach the agent once it runs; without one (a listing, a check) every action says it is unavailable. */
	runtime?: RuntimeLink;
}

export interface LoadResult {
	/** Sorted: larger priority first, ties in load order. */
	extensions: LoadedExtension[];
	reports: LoadReport[];
}

/**
 * Loads the candidates in order, one at a time (a `register` may depend on
 * what loaded before it): the first of a name wins; project code is skipped
 * without trust; a module that fails to import, is written for another API
 * major, or whose `register` throws, rejects or outlasts its 10 s is reported
 * with its path and leaves nothing registered. The host goes on in every case.
 */
export async function loadExtensions(options: LoadOptions): Promise<LoadResult> {
	const reports: LoadReport[] = [];
	const loaded: LoadedExtension[] = [];
	const names = new Map<string, string>(options.takenNames);
	const toolOwners = new Map(options.takenToolNames);
	const flags = options.flags ?? new ExtensionFlags();
	const commandOwners = new Map([...builtinCommandNames.map(name => [name, 'the chat screen'] as const), ...(options.takenCommandNames ?? [])]);
	const rendererOwners = new Map(options.takenRenderers);
	const providerOwners = new Map(options.takenProviderIds);
	for (const candidate of options.candidates) {
		if (candidate.project && !options.trusted) {
			reports.push({kind: 'skipped-untrusted', path: candidate.path, listedIn: candidate.listedIn});
			continue;
		}

		const failed = (message: string) => reports.push({kind: 'failed', path: candidate.path, listedIn: candidate.listedIn, message});
		let entry;
		try {
			entry = await resolveEntryPoint(candidate.path);
		} catch (error) {
			failed((error as Error).message);
			continue;
		}

		const earlier = names.get(entry.name);
		if (earlier !== undefined) {
			reports.push({kind: 'shadowed', path: candidate.path, listedIn: candidate.listedIn, name: entry.name, by: earlier});
			continue;
		}

		let register: RegisterFunction;
		try {
			register = await importExtension(entry, options.generation, candidate.shipped ? compiledProviders : undefined);
		} catch (error) {
			failed((error as Error).message);
			continue;
		}

		const staged = stage(entry.name, {toolOwners, commandOwners, rendererOwners, providerOwners}, flags, options.runtime ?? new RuntimeLink());
		try {
			await withinTime(
				Promise.resolve().then(() => register(staged.api)),
				options.registerTimeoutMs ?? REGISTER_TIMEOUT_MS,
			);
		} catch (error) {
			failed(error instanceof TimedOut ? `register did not finish within ${error.ms / 1000} s` : `register failed: ${describeThrown(error)}`);
			continue;
		} finally {
			staged.close();
		}

		// A declared provider is the one this extension registered: another's (or none) is a mistake the author must hear of.
		const undeclared = (staged.declaration.providers ?? []).filter(declared => !staged.providers.has(declared.id) && !staged.shadowedProviders.has(declared.id));
		if (undeclared.length > 0) {
			const registered = staged.providers.size === 0 ? 'it registered no provider' : `it registered ${[...staged.providers.keys()].map(id => `"${id}"`).join(', ')}`;
			failed(
				`declare: providers lists ${undeclared.map(declared => `"${declared.id}"`).join(', ')}, but ${registered}; the catalogue's id must be the id given to registerStreamingProvider or registerProvider`,
			);
			continue;
		}

		names.set(entry.name, candidate.path);
		for (const tool of staged.tools) toolOwners.set(tool.name, `extension ${entry.name} (${candidate.path})`);
		for (const [name, spec] of staged.flags) flags.commit(entry.name, name, spec);
		for (const name of staged.commands.keys()) commandOwners.set(name, `extension ${entry.name} (${candidate.path})`);
		for (const kind of ['message', 'entry'] as const) for (const type of staged.renderers[kind].keys()) rendererOwners.set(rendererKey(kind, type), `extension ${entry.name} (${candidate.path})`);
		for (const id of staged.providers.keys()) providerOwners.set(id, `extension ${entry.name} (${candidate.path})`);
		loaded.push({
			name: entry.name,
			file: entry.file,
			candidate,
			priority: staged.declaration.priority ?? 0,
			platforms: staged.declaration.platforms,
			tools: staged.tools,
			flags: staged.flags,
			commands: staged.commands,
			markdownTransformers: staged.markdownTransformers,
			renderers: staged.renderers,
			providers: [...staged.providers.values()],
			catalogue: (staged.declaration.providers ?? []).filter(declared => staged.providers.has(declared.id)),
			notices: staged.notices,
			handlers: staged.handlers,
			discoverers: staged.discoverers,
			beforeAgentStart: staged.beforeAgentStart,
		});
	}

	// Array.prototype.sort is stable: ties keep load order.
	loaded.sort((a, b) => b.priority - a.priority);
	return {extensions: loaded, reports};
}

/**
 * The api one extension's `register` gets. What it registers is kept here
 * until `register` settles; after that (success, failure or timeout) every
 * slot refuses, so a `register` that outlived its time cannot slip anything
 * in later.
 */
function stage(
	name: string,
	owners: {toolOwners: ReadonlyMap<string, string>; commandOwners: ReadonlyMap<string, string>; rendererOwners: ReadonlyMap<string, string>; providerOwners: ReadonlyMap<string, string>},
	commandLine: ExtensionFlags,
	link: RuntimeLink,
) {
	const {toolOwners, commandOwners, rendererOwners, providerOwners} = owners;
	const renderers = {message: new Map<string, MessageRenderer>(), entry: new Map<string, EntryRenderer>()};
	const addRenderer = (kind: 'message' | 'entry', slot: 'registerMessageRenderer' | 'registerEntryRenderer', customType: unknown, render: unknown) => {
		guard(slot);
		const checked = checkRenderer<MessageRenderer & EntryRenderer>(slot, customType, render);
		const owner = rendererOwners.get(rendererKey(kind, checked.customType)) ?? (renderers[kind].has(checked.customType) ? `extension ${name}` : undefined);
		if (owner !== undefined) throw new Error(`${slot}: the ${kind} renderer of customType "${checked.customType}" is taken by ${owner}; one renderer per customType`);
		renderers[kind].set(checked.customType, checked.render);
	};
	const providers = new Map<string, CheckedProvider>();
	const shadowedProviders = new Set<string>();
	const notices: string[] = [];
	// Seed 004 §5: streaming after one-shot for the same id replaces it in place (streaming is the superset); anything else twice is a mistake.
	const addProvider = (value: unknown, streaming: boolean) => {
		const slot = streaming ? 'registerStreamingProvider' : 'registerProvider';
		guard(slot);
		const checked = checkProvider(value, streaming);
		const owner = providerOwners.get(checked.id);
		// Seed appendix: the first registration of an id wins, with its catalogue; the later one is said, naming both, and the rest of its extension loads.
		if (owner !== undefined) {
			if (!shadowedProviders.has(checked.id)) notices.push(`extension ${name}: its provider "${checked.id}" is not used: ${owner} registered that id first (and its catalogue entry counts)`);
			shadowedProviders.add(checked.id);
			return;
		}

		const earlier = providers.get(checked.id);
		if (earlier && (earlier.streaming || !streaming)) {
			throw new Error(
				`${slot}: extension ${name} registered the provider "${checked.id}" already (${earlier.streaming ? 'streaming' : 'one-shot'}); only a streaming registration after a one-shot one replaces it`,
			);
		}

		providers.set(checked.id, checked);
	};

	let open = true;
	const tools: ExtensionTool[] = [];
	const commands = new Map<string, ExtensionCommand>();
	const markdownTransformers: MarkdownTransformer[] = [];
	const flags = new Map<string, FlagSpec>();
	/** This run's values of the flags it registered, readable before its register returns. */
	const values = new Map<string, boolean | string | undefined>();
	const handlers: Array<{tag: EventTag; handler: EventHandler}> = [];
	const discoverers: EventHandler[] = [];
	const beforeAgentStart: EventHandler[] = [];
	const declaration: CheckedDeclaration = {};
	const guard = (slot: string) => {
		if (!open) throw new Error(`extension ${name}: ${slot} was called after register ended; register everything before register returns`);
	};

	const api: ExtensionApi = Object.freeze({
		apiVersion: EXTENSION_API_VERSION,
		ABORT,
		declare(value: Declaration) {
			guard('declare');
			Object.assign(declaration, checkDeclaration(value));
		},
		registerTool(tool: ExtensionTool) {
			guard('registerTool');
			const checked = checkExtensionTool(tool);
			const owner = toolOwners.get(checked.name) ?? (tools.some(other => other.name === checked.name) ? `extension ${name}` : undefined);
			if (owner !== undefined) throw new Error(`registerTool: the tool name "${checked.name}" is taken by ${owner}; extension tools never shadow another tool`);
			tools.push(checked);
		},
		registerEventHandler(tag: unknown, handler: unknown) {
			guard('registerEventHandler');
			if (!isEventTag(tag)) throw new Error(`registerEventHandler: unknown event tag ${JSON.stringify(tag)}; the tags are ${eventTags.join(', ')}`);
			if (typeof handler !== 'function') throw new Error(`registerEventHandler ${tag}: the handler must be a function (event, ctx) => answer`);
			handlers.push({tag, handler: handler as EventHandler});
		},
		registerFlag(flag: unknown, spec: unknown) {
			guard('registerFlag');
			const checked = commandLine.check(name, flag, spec, flags);
			flags.set(checked.name, checked.spec);
			values.set(checked.name, checked.value);
		},
		registerCommand(command: unknown, spec: unknown) {
			guard('registerCommand');
			const checked = checkCommand(command, spec);
			const owner = commandOwners.get(checked.name) ?? (commands.has(checked.name) ? `extension ${name}` : undefined);
			if (owner !== undefined) throw new Error(`registerCommand: /${checked.name} is taken by ${owner}`);
			commands.set(checked.name, checked.command);
		},
		registerProvider(provider: unknown) {
			addProvider(provider, false);
		},
		registerStreamingProvider(provider: unknown) {
			addProvider(provider, true);
		},
		registerMarkdownTransformer(transform: unknown) {
			guard('registerMarkdownTransformer');
			markdownTransformers.push(checkMarkdownTransformer(transform));
		},
		registerMessageRenderer(customType: unknown, render: unknown) {
			addRenderer('message', 'registerMessageRenderer', customType, render);
		},
		registerEntryRenderer(customType: unknown, render: unknown) {
			addRenderer('entry', 'registerEntryRenderer', customType, render);
		},
		registerResourcesDiscover(handler: unknown) {
			guard('registerResourcesDiscover');
			if (typeof handler !== 'function') throw new Error('registerResourcesDiscover: the handler must be a function (event, ctx) => ({skillPaths?, promptPaths?, themePaths?})');
			discoverers.push(handler as EventHandler);
		},
		registerBeforeAgentStart(handler: unknown) {
			guard('registerBeforeAgentStart');
			if (typeof handler !== 'function') throw new Error('registerBeforeAgentStart: the handler must be a function (event, ctx) => ({systemPrompt?})');
			beforeAgentStart.push(handler as EventHandler);
		},
		runtime: Object.freeze({
			// Any extension's flag once loaded; its own as soon as it registered it.
			getCliFlag: (flag: string) => (values.has(flag) ? values.get(flag) : commandLine.value(flag)),
			getExecutionContext: () => link.service('getExecutionContext')(name),
			// The second argument is the tool's ctx: it binds the call to that invocation (runtime-link.ts).
			// The service checks every field: the overloads of ExtensionRuntime only guide an author's types.
			childAgent: (async (request: unknown, ctx?: unknown) => link.service('childAgent')(name, request, invocationOf(ctx))) as NonNullable<ExtensionRuntime['childAgent']>,
			appendEntry: async (request: unknown) => link.service('appendEntry')(name, request),
			sendMessage: async (request: unknown) => link.service('sendMessage')(name, request),
			// The second argument, a tool's ctx or anything with a signal, may cancel the dialog (ui-dialog-request.ts).
			uiDialog: async (request: unknown, ctx?: unknown) => link.service('uiDialog')(name, request, dialogBinding(ctx)),
		}),
	});
	return {
		api,
		tools,
		flags,
		commands,
		markdownTransformers,
		renderers,
		providers,
		shadowedProviders,
		notices,
		handlers,
		discoverers,
		beforeAgentStart,
		declaration,
		close() {
			open = false;
		},
	};
}

interface CheckedDeclaration {
	priority?: number;
	platforms?: Platform[];
	providers?: CheckedCatalogueEntry[];
}

function checkDeclaration(value: unknown): CheckedDeclaration {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('declare takes an object: {priority?, platforms?, providers?}');
	const {priority, platforms: wanted, providers} = value as Record<string, unknown>;
	const declaration: CheckedDeclaration = {};
	// Copied as checked: an extension that changes its object later changes nothing here.
	if (providers !== undefined) declaration.providers = checkCatalogue(providers);
	if (priority !== undefined) {
		if (typeof priority !== 'number' || !Number.isFinite(priority)) throw new Error(`declare: priority must be a finite number (got ${JSON.stringify(priority)})`);
		declaration.priority = priority;
	}

	if (wanted !== undefined) {
		if (!Array.isArray(wanted) || !wanted.every(item => typeof item === 'string' && platforms.has(item as Platform))) {
			throw new Error(`declare: platforms must be a list of "linux", "macos", "windows" (got ${JSON.stringify(wanted)})`);
		}

		declaration.platforms = [...new Set(wanted as Platform[])];
	}

	return declaration;
}

/** This process's platform in the names `declare` uses. */
export function currentPlatform(platform: NodeJS.Platform = process.platform): Platform | undefined {
	if (platform === 'linux') return 'linux';
	if (platform === 'darwin') return 'macos';
	if (platform === 'win32') return 'windows';
	return undefined;
}
