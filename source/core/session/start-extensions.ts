import {dirname} from 'node:path';
import type {PlatformDirs} from '../config/dirs.js';
import type {Tool} from '../tools/types.js';
import type {EventBus, RegisteredHandler} from '../extensions/event-bus.js';
import type {EntryRenderer, ExtensionCommand, MarkdownTransformer, MessageRenderer} from '../extensions/api.js';
import {ExtensionFlags} from '../extensions/cli-flags.js';
import type {LoadedExtension, LoadReport} from '../extensions/load-extensions.js';
import type {ExtensionCandidate} from '../extensions/sources.js';
import type {TrustOutcome, TrustQuestion, Undecided} from './decide-trust.js';
import type {ResourceDiscoverer} from '../extensions/discover-resources.js';
import type {BeforeAgentStart} from '../extensions/before-agent-start.js';
import {readRunSettings, type RunSettings} from '../extensions/settings-file.js';
import {RuntimeLink} from '../extensions/runtime-link.js';
import type {OwnedProvider} from '../extensions/extension-provider.js';
import type {CheckedCatalogueEntry} from '../extensions/check-catalogue.js';
import {waitsForProjectNames, withoutDevCopies} from './candidate-names.js';

/** The extension part of a start: `i`'s flags, or the core API's options. */
export interface ExtensionOptions {
	/** `--extension PATH`, repeatable. */
	extensions?: readonly string[] | undefined;
	/** `--extensions-dir DIR`, repeatable. */
	extensionDirs?: readonly string[] | undefined;
	/** `--no-extensions`: none load, from anywhere. */
	noExtensions?: boolean | undefined;
	/** `i dev-local`: only the `extensions` paths load; no folder, environment, settings or global extensions, and of the settings only the project's (sources.ts). */
	localOnly?: boolean | undefined;
	/** `--trust-project`: the workspace's own extensions load this once without an earlier trust. */
	trustProject?: boolean | undefined;
	/**
	 * How a head with a person asks whether the workspace's code may run
	 * (the chat screen); its answer is remembered. Without it (headless) an
	 * undecided workspace's code is skipped, and the head says so.
	 */
	askTrust?: ((question: TrustQuestion) => Promise<boolean>) | undefined;
	/**
	 * The command line's flags no built-in flag is (`i`'s parser): the
	 * extensions' own flags claim theirs as they register, and one left
	 * unclaimed once all have loaded is a usage error. Without it (the core
	 * API) an extension's flags have their defaults.
	 */
	commandLine?: ExtensionFlags | undefined;
	/** `i dev`: the extension it builds, by the name its staged build loads under; that build, listed first, stands in for every other copy of it. */
	dev?: {readonly name: string} | undefined;
}

export interface StartedExtensions {
	/** Extension tools as core tools, in priority order. */
	tools: Tool[];
	/** For the head to show: what failed to load or was skipped, each naming the path and how to fix it. */
	warnings: string[];
	/** Module files and folders of the loaded extensions, by extension name. */
	files: ReadonlyMap<string, string>;
	/** The extensions' event handlers; null when none registered one. */
	events: EventBus | null;
	/** What the chat screen adds (line mode and -p ignore these): slash commands by name, and Markdown transformers in priority order. */
	ui: ExtensionUi;
	/** The settings files: their skill and prompt folders count with or without extensions. */
	settings: RunSettings;
	/** `registerResourcesDiscover` handlers of this platform, in priority order. */
	discoverers: ResourceDiscoverer[];
	/** The `registerBeforeAgentStart` chain; null when none registered one. */
	beforeAgentStart: BeforeAgentStart | null;
	/** How many listed extensions failed to load (not counting those skipped for trust or shadowed): a reload with any keeps the previous generation. */
	failed: number;
	/** The model providers the extensions registered, by id (ids are unique across extensions). */
	providers: ReadonlyMap<string, OwnedProvider>;
	/** The extensions' part of the catalogue (`declare({providers})`), each with whose it is, in load order. */
	catalogue: ReadonlyArray<{extension: string; entry: CheckedCatalogueEntry}>;
	/** Where this generation's `api.runtime` actions reach the agent: set-up and the head provide the services, a reload closes it. */
	runtime: RuntimeLink;
}

export interface ExtensionUi {
	commands: ReadonlyMap<string, ExtensionCommand & {extension: string}>;
	markdownTransformers: ReadonlyArray<{extension: string; transform: MarkdownTransformer}>;
	/** The message and entry renderers, by customType (one each in a host). */
	messageRenderers: ReadonlyMap<string, {extension: string; render: MessageRenderer}>;
	entryRenderers: ReadonlyMap<string, {extension: string; render: EntryRenderer}>;
}

/** What loading needs besides the sources: the tool names already taken, and where the event bus reports. */
export interface LoadContext {
	takenToolNames: ReadonlyMap<string, string>;
	report: (message: string) => void;
}

/** Everything a start of the extensions needs from set-up. */
export type StartContext = {workspace: string; dirs: PlatformDirs} & LoadContext;

type Phase = {extensions: LoadedExtension[]; reports: LoadReport[]};

/** A candidate a start did not load: where it was listed, why in one word, and in words (`i extensions`). */
export interface Refusal {
	path: string;
	listedIn: string;
	why: 'untrusted' | 'failed' | 'shadowed';
	reason: string;
}

/**
 * One start's extensions, in the steps a head may take apart (the chat
 * screen fires BeforeTuiStart between them):
 *
 * 1. `find`: the sources (spec/extensions.md §8).
 *    Without any listed, a start pays for the sources module, two settings
 *    reads and one folder listing, and nothing else loads.
 * 2. `loadFirst`: the extensions that need no trust (`--extension`,
 *    `--extensions-dir`, I_EXTENSIONS_DIR, the global settings), whose
 *    ProjectTrust handlers are then asked (decide-trust.ts); when trust is
 *    decided without a person (an earlier answer, `--trust-project`, an
 *    extension, or headless), the project's extensions load too.
 * 3. `start`: whatever is left — the person's answer (`askTrust`), then the
 *    project's code — and the result; a flag of the command line no
 *    extension claimed is then a usage error.
 *
 * Names keep the documented order, first found wins: a trust-free
 * extension listed after a project one of the same name (the global
 * settings come after the project) waits for the trust decision, so a
 * trusted project's extension still wins over it. Priority ties keep the
 * listed order whichever step loaded them.
 */
export class ExtensionStartup {
	readonly #options: ExtensionOptions;
	readonly #workspace: string;
	readonly #dirs: PlatformDirs;
	readonly #candidates: readonly ExtensionCandidate[];
	readonly #warnings: string[];
	readonly #settings: RunSettings;
	readonly #flags: ExtensionFlags;
	/** 0 at start, one more for each /reload: the modules are imported again. */
	readonly #generation: number;
	#first: Promise<void> | undefined;
	#context: LoadContext | undefined;
	#loaded: Phase = {extensions: [], reports: []};
	/** The candidates not loaded yet: the project's and those waiting for its names. */
	#rest: ExtensionCandidate[] = [];
	#trust: TrustOutcome | Undecided | undefined;
	#events: EventBus | null = null;
	/** load-extensions' wording, once that module is loaded (there are reports only after it loaded something). */
	#describeLoadReport: ((report: LoadReport) => string) | undefined;
	readonly #runtime = new RuntimeLink();

	private constructor(
		options: ExtensionOptions,
		context: {workspace: string; dirs: PlatformDirs},
		found: {candidates: readonly ExtensionCandidate[]; warnings: string[]; settings: RunSettings},
		generation: number,
	) {
		const {candidates, warnings, settings} = found;
		this.#settings = settings;
		this.#options = options;
		this.#workspace = context.workspace;
		this.#dirs = context.dirs;
		this.#candidates = candidates;
		this.#warnings = warnings;
		this.#generation = generation;
		const flags = options.commandLine ?? new ExtensionFlags();
		// A reload's extensions claim their flags again, from the same command line.
		this.#flags = generation === 0 ? flags : flags.fresh();
	}

	static async find(options: ExtensionOptions, context: {workspace: string; dirs: PlatformDirs}, generation = 0): Promise<ExtensionStartup> {
		// The settings count with or without extensions: their skill and prompt folders.
		const settings = await readRunSettings(context.workspace, context.dirs.config_dir, {projectOnly: options.localOnly === true});
		if (options.noExtensions) return new ExtensionStartup(options, context, {candidates: [], warnings: [], settings}, generation);
		const {findExtensionSources} = await import('../extensions/sources.js');
		const sources = await findExtensionSources({
			extensions: options.extensions ?? [],
			extensionDirs: options.extensionDirs ?? [],
			workspace: context.workspace,
			configDir: context.dirs.config_dir,
			settings,
			localOnly: options.localOnly === true,
		});
		const candidates = options.dev ? await withoutDevCopies(sources.candidates, options.dev.name) : sources.candidates;
		return new ExtensionStartup(options, context, {candidates, warnings: [...sources.problems], settings}, generation);
	}

	/**
	 * Whether any extension is listed anywhere besides the provider package
	 * that ships with `i`: that one registers no BeforeTuiStart handler and
	 * no flag, so the chat screen need not wait for it before its first frame.
	 */
	get found(): boolean {
		return this.#candidates.some(candidate => candidate.origin !== 'bundled');
	}

	/** The handlers of the extensions loaded so far (after `loadFirst`); null when none registered one. */
	get events(): EventBus | null {
		return this.#events;
	}

	/** What was said so far, for a head that stops before `start` (a veto). */
	get warnings(): readonly string[] {
		return [...this.#warnings, ...this.#describe(this.#loaded.reports)];
	}

	/** Step 2; a second call waits for the first, whose context stays. */
	async loadFirst(context: LoadContext): Promise<void> {
		this.#first ??= this.#loadFirst(context);
		return this.#first;
	}

	/** Step 3 (after step 2 with this context, when the head did not take it itself). */
	async start(context: LoadContext): Promise<StartedExtensions> {
		await this.loadFirst(context);
		if (this.#trust && 'undecided' in this.#trust) {
			this.#trust = await this.#trust.ask(this.#options.askTrust!);
			await this.#loadRest();
		}

		const {extensions, reports} = this.#loaded;
		const warnings = [...this.#warnings, ...this.#describe(reports), ...extensions.flatMap(extension => extension.notices)];
		// Every extension has had its chance to claim a flag of the command line.
		try {
			this.#flags.finish();
		} catch (error) {
			// Why an extension did not load is often why its flag is unknown: said before the error.
			for (const message of warnings) context.report(message);
			throw error;
		}

		const {createExtensionTool} = await import('../extensions/extension-tool.js');
		// Like event handlers, these run only where the extension said it runs.
		const platform = extensions.length === 0 ? undefined : (await import('../extensions/load-extensions.js')).currentPlatform();
		const here = extensions.filter(extension => !extension.platforms || (platform !== undefined && extension.platforms.includes(platform)));
		const discoverers = here.flatMap(extension =>
			extension.discoverers.map(handler => ({extension: extension.name, folder: extension.candidate.path === extension.file ? dirname(extension.file) : extension.candidate.path, handler})),
		);
		const transforms = here.flatMap(extension => extension.beforeAgentStart.map(handler => ({extension: extension.name, handler})));
		const beforeAgentStart = transforms.length === 0 ? null : (await import('../extensions/before-agent-start.js')).createBeforeAgentStart(transforms, context.report);
		return {
			settings: this.#settings,
			discoverers,
			beforeAgentStart,
			tools: extensions.flatMap(extension => extension.tools.map(tool => createExtensionTool(tool, {name: extension.name, file: extension.file}))),
			warnings,
			files: new Map(extensions.map(extension => [extension.name, extension.candidate.path])),
			events: this.#events,
			ui: {
				commands: new Map(extensions.flatMap(extension => [...extension.commands].map(([name, command]) => [name, {...command, extension: extension.name}] as const))),
				markdownTransformers: extensions.flatMap(extension => extension.markdownTransformers.map(transform => ({extension: extension.name, transform}))),
				messageRenderers: new Map(extensions.flatMap(extension => [...extension.renderers.message].map(([type, render]) => [type, {extension: extension.name, render}] as const))),
				entryRenderers: new Map(extensions.flatMap(extension => [...extension.renderers.entry].map(([type, render]) => [type, {extension: extension.name, render}] as const))),
			},
			failed: reports.filter(report => report.kind === 'failed').length,
			providers: new Map(
				extensions.flatMap(extension =>
					extension.providers.map(provider => {
						const oauth = extension.oauth.find(flow => flow.id === provider.id);
						return [provider.id, {extension: extension.name, provider, ...(oauth ? {oauth} : {})}] as const;
					}),
				),
			),
			// In the listed order, not priority's: which extension is first for an id was decided by it.
			catalogue: [...extensions]
				.sort((a, b) => this.#candidates.indexOf(a.candidate) - this.#candidates.indexOf(b.candidate))
				.flatMap(extension => extension.catalogue.map(entry => ({extension: extension.name, entry}))),
			runtime: this.#runtime,
		};
	}

	async #loadFirst(context: LoadContext): Promise<void> {
		this.#context = context;
		// The project's MCP servers (its code too), its allow rules and its sandbox settings need trust as well: a head that asks puts them in
		// the same question, so a project whose only content is one of them is asked about too (project-content.ts).
		const asked = this.#options.askTrust && this.#generation === 0 ? await (await import('./project-content.js')).askedContent(this.#workspace, this.#dirs, this.#settings) : undefined;
		const {mcpServers = [], allowRules = [], sandboxSettings = [], modelEndpoints = []} = asked ?? {};
		const settingsAsked = allowRules.length > 0 || sandboxSettings.length > 0 || modelEndpoints.length > 0;
		if (this.#candidates.length === 0 && mcpServers.length === 0 && !settingsAsked) return;
		const projectCode = this.#candidates.filter(candidate => candidate.project);
		const waiting = await waitsForProjectNames(this.#candidates);
		// The provider package loads after every source the person names, the project's too: their provider ids win a clash with it.
		if (projectCode.length > 0) for (const candidate of this.#candidates) if (candidate.origin === 'bundled') waiting.add(candidate);
		this.#rest = this.#candidates.filter(candidate => candidate.project || waiting.has(candidate));
		await this.#load(
			this.#candidates.filter(candidate => !candidate.project && !waiting.has(candidate)),
			false,
		);
		if (projectCode.length > 0 || mcpServers.length > 0 || settingsAsked) {
			const {decideTrust} = await import('./decide-trust.js');
			this.#trust = await decideTrust(
				{trustProject: this.#options.trustProject, canAsk: this.#options.askTrust !== undefined},
				{workspace: this.#workspace, dirs: this.#dirs, events: this.#events},
				{extensions: projectCode.map(candidate => candidate.path), mcpServers, allowRules, sandboxSettings, modelEndpoints},
			);
		}

		if (!this.#trust || !('undecided' in this.#trust)) await this.#loadRest();
	}

	async #loadRest(): Promise<void> {
		const trust = this.#trust as TrustOutcome | undefined;
		if (this.#rest.length === 0) return;
		await this.#load(this.#rest, trust?.trusted === true);
		this.#rest = [];
		if (trust?.byExtension && trust.trusted) {
			const {byExtension} = trust;
			const paths = this.#candidates.filter(candidate => candidate.project).map(candidate => candidate.path);
			this.#warnings.push(
				`extension ${byExtension.name} trusted the workspace ${this.#workspace} for this run (ProjectTrust${byExtension.reason ? `: ${byExtension.reason}` : ''}), so its own extensions load: ${paths.join(', ')}`,
			);
		}
	}

	/** Loads candidates after those loaded before (their names, tools and commands taken), then keeps every loaded one in priority order. */
	async #load(candidates: readonly ExtensionCandidate[], trusted: boolean): Promise<void> {
		const context = this.#context!;
		const {loadExtensions, currentPlatform, describeLoadReport, rendererKey} = await import('../extensions/load-extensions.js');
		this.#describeLoadReport = describeLoadReport;
		const before = this.#loaded.extensions;
		const takenToolNames = new Map(context.takenToolNames);
		const takenCommandNames = new Map<string, string>();
		const takenRenderers = new Map<string, string>();
		const takenProviderIds = new Map<string, string>();
		for (const extension of before) {
			const owner = `extension ${extension.name} (${extension.candidate.path})`;
			for (const tool of extension.tools) takenToolNames.set(tool.name, owner);
			for (const name of extension.commands.keys()) takenCommandNames.set(name, owner);
			for (const type of extension.renderers.message.keys()) takenRenderers.set(rendererKey('message', type), owner);
			for (const type of extension.renderers.entry.keys()) takenRenderers.set(rendererKey('entry', type), owner);
			for (const provider of extension.providers) takenProviderIds.set(provider.id, owner);
		}

		const {extensions, reports} = await loadExtensions({
			candidates,
			trusted,
			takenToolNames,
			takenCommandNames,
			takenRenderers,
			takenProviderIds,
			takenNames: new Map(before.map(extension => [extension.name, extension.candidate.path])),
			flags: this.#flags,
			generation: this.#generation,
			runtime: this.#runtime,
		});
		const order = (extension: LoadedExtension) => this.#candidates.indexOf(extension.candidate);
		const all = [...before, ...extensions].sort((a, b) => b.priority - a.priority || order(a) - order(b));
		this.#loaded = {extensions: all, reports: [...this.#loaded.reports, ...reports]};
		const handlers: RegisteredHandler[] = all.flatMap(extension => extension.handlers.map(({tag, handler}) => ({extension: extension.name, tag, handler, platforms: extension.platforms})));
		if (handlers.length === 0 || extensions.every(extension => extension.handlers.length === 0)) return;
		this.#events = this.#events ? this.#events.withHandlers(handlers) : new (await import('../extensions/event-bus.js')).EventBus({handlers, report: context.report, platform: currentPlatform()});
	}

	/**
	 * After `start`, what the start made of each candidate (`i extensions`):
	 * the extensions loaded, in priority order, the others, each with why in
	 * the words the start's warnings use, and the start's other notes.
	 */
	get outcome(): {extensions: readonly LoadedExtension[]; refused: Refusal[]; notes: string[]} {
		const {extensions, reports} = this.#loaded;
		const refused = reports.map(report => {
			const {path, listedIn} = report;
			if (report.kind !== 'skipped-untrusted') return {path, listedIn, why: report.kind, reason: this.#describeLoadReport!(report)};
			return {path, listedIn, why: 'untrusted' as const, reason: `project code, and the workspace ${this.#workspace} is not trusted: ${this.#trustFix('it')}`};
		});
		// What else the start says: folders it could not list, a workspace an extension trusted, a provider id another had first.
		return {extensions, refused, notes: [...this.#warnings, ...extensions.flatMap(extension => extension.notices)]};
	}

	/** The load reports as warnings; the skipped project extensions are said once, together, with how to allow them. */
	#describe(reports: readonly LoadReport[]): string[] {
		const warnings: string[] = [];
		const skipped = reports.filter(report => report.kind === 'skipped-untrusted');
		for (const report of reports) if (report.kind !== 'skipped-untrusted') warnings.push(`extension ${report.path} (from ${report.listedIn}) was not loaded: ${this.#describeLoadReport!(report)}`);
		if (skipped.length === 0) return warnings;
		warnings.push(
			`the workspace ${this.#workspace} is not trusted, so its own ${skipped.length === 1 ? 'extension was' : `${skipped.length} extensions were`} skipped: ${skipped.map(report => report.path).join(', ')}; ${this.#trustFix(skipped.length === 1 ? 'it' : 'them')}`,
		);
		return warnings;
	}

	/** What decided against trust, and what would load the skipped extensions (`them`: the words for them). */
	#trustFix(them: 'it' | 'them'): string {
		const trust = this.#trust as TrustOutcome;
		if (trust.byExtension) {
			return `extension ${trust.byExtension.name} refused it (ProjectTrust${trust.byExtension.reason ? `: ${trust.byExtension.reason}` : ''}), which neither --trust-project nor an earlier yes overrides`;
		}

		return trust.refusedIn === undefined ? `pass --trust-project to load ${them}` : `it was not trusted when asked; pass --trust-project to load ${them}, or delete ${trust.refusedIn} to be asked again`;
	}
}

/** Finds and loads the extensions for a start in one go (headless heads, the core API). */
export async function startExtensions(options: ExtensionOptions, context: StartContext, generation = 0): Promise<StartedExtensions> {
	return (await ExtensionStartup.find(options, context, generation)).start(context);
}
