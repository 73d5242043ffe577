import type {ExtensionCommand, ExtensionTool, MarkdownTransformer, Platform} from './api.js';
import {builtinCommandNames} from './check-command.js';
import {compiledProviders} from './compiled-providers.js';
import {resolveEntryPoint} from './entry-point.js';
import {importExtension, type RegisterFunction} from './import-extension.js';
import {describeThrown} from './describe-thrown.js';
import {noteExtensionCode} from './extension-code.js';
import type {ExtensionCandidate} from './sources.js';
import type {EventHandler} from './event-bus.js';
import type {EventTag} from './event-tags.js';
import {ExtensionFlags, type FlagSpec} from './cli-flags.js';
import {TimedOut, withinTime} from './within-time.js';
import {RuntimeLink} from './runtime-link.js';
import type {CheckedProvider} from './check-provider.js';
import type {CheckedOAuthProvider} from './check-oauth.js';
import type {CheckedCatalogueEntry} from './check-catalogue.js';
import {ExtensionStage, rendererKey, type Renderers} from './stage-extension.js';

// start-extensions.ts takes it with the loader, in one lazy import.
export {rendererKey} from './stage-extension.js';

/** spec/extensions.md §3: a `register` that takes longer fails only its extension. */
export const REGISTER_TIMEOUT_MS = 10_000;

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
	/** OAuth flows (registerOAuthProvider) of its own providers that are in its catalogue; not those of a provider another extension had first. */
	oauth: CheckedOAuthProvider[];
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
	/** Project code loads only when the workspace is trusted (spec/extensions.md §8). */
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

		// The shipped provider package is i's own code, compiled in: a fault there is i's.
		if (!candidate.shipped) noteExtensionCode(candidate.path, {name: entry.name, folder: candidate.path !== entry.file});
		let register: RegisterFunction;
		try {
			register = await importExtension(entry, options.generation, candidate.shipped ? compiledProviders : undefined);
		} catch (error) {
			failed((error as Error).message);
			continue;
		}

		const staged = new ExtensionStage(entry.name, {toolOwners, commandOwners, rendererOwners, providerOwners}, flags, options.runtime ?? new RuntimeLink());
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

		const oauthProblem = checkOAuthIds(staged);
		if (oauthProblem !== undefined) {
			failed(oauthProblem);
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
			oauth: [...staged.oauth.values()].filter(flow => staged.providers.has(flow.id)),
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

/** An OAuth flow is for a provider the extension registered and declared, so `i auth login ID` finds it in the catalogue; else why not. */
function checkOAuthIds(staged: ExtensionStage): string | undefined {
	const declared = new Set((staged.declaration.providers ?? []).map(provider => provider.id));
	for (const id of staged.oauth.keys()) {
		if (staged.shadowedProviders.has(id)) continue;
		if (!staged.providers.has(id)) return `registerOAuthProvider: "${id}" is not a provider this extension registers; register it with registerStreamingProvider or registerProvider first`;
		if (!declared.has(id)) return `registerOAuthProvider: provider "${id}" is not in this extension's catalogue; list it in declare({providers}) so i auth login ${id} finds it`;
	}

	return undefined;
}

/** This process's platform in the names `declare` uses. */
export function currentPlatform(platform: NodeJS.Platform = process.platform): Platform | undefined {
	if (platform === 'linux') return 'linux';
	if (platform === 'darwin') return 'macos';
	if (platform === 'win32') return 'windows';
	return undefined;
}
