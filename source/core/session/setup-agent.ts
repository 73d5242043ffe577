import {join} from 'node:path';
import {StartVetoError, UsageError, errorMessage} from '../errors.js';
import {settledWithin} from '../extensions/within-time.js';
import {isProtocol, type LoadedConfig} from '../config/load-config.js';
import {runCredential} from '../auth/run-credential.js';
import {protocols} from '../providers/types.js';
import type {OwnedProvider} from '../extensions/extension-provider.js';
import {executionContextService, type LiveAgent} from './execution-context.js';
import {createAdapter, defaultBaseUrls} from '../providers/index.js';
import {createWorkerProviderCaller} from '../providers/worker-provider.js';
import {createNativeTools} from '../tools/native-tools.js';
import type {Session} from './session-store.js';
import {openStartSession} from './start-session.js';
import {createApprovalGate, type AskPerson} from '../agent/approval-gate.js';
import {renderSystemPrompt} from '../history/system-prompt.js';
import {createHttpCaller, type FilesChannel, type ModelCaller} from '../providers/model-caller.js';
import {accountScope, filesChannelAuthorised, loadProviderFile, type LoadedProviderFile} from '../config/provider-file.js';
import type {PlatformDirs} from '../config/dirs.js';
import type {TurnContext} from '../agent/run-turn.js';
import type {EmitEvent} from '../events.js';
import {createHookChain, emptyHookChain, HookError, type HookChain} from '../lifecycle/hook-chain.js';
import {readSystemPrompt} from '../lifecycle/hook-results.js';
import type {LoadedPlugins, WorkerPool} from '../pool/types.js';
import {startPlugins, type StartedPlugins, type StartOptions} from './start-plugins.js';
import type {Tool} from '../tools/types.js';
import {startExtensions, type ExtensionOptions, type ExtensionStartup, type ExtensionUi, type StartContext, type StartedExtensions} from './start-extensions.js';
import type {EventBus} from '../extensions/event-bus.js';
import {loadResources, type ResourceOptions} from './load-resources.js';
import {applyProjectSystemPrompt, readProjectSystemPrompt} from '../resources/project-system-prompt.js';
import {PROJECT_PROMPT_FOLDER, type ResourceFolders} from '../resources/resource-folders.js';
import type {RuntimeLink, RuntimeServices} from '../extensions/runtime-link.js';
import {MessageDelivery} from '../agent/message-delivery.js';
import {ChildAgents, type ChildParent} from '../agent/child-agents.js';
import {CORE_OWNER} from '../child-request.js';
import {childAgentService} from '../agent/child-agent-service.js';
import type {ApprovalPolicy} from '../agent/approval-gate.js';
import type {Catalogue} from '../catalogue/catalogue.js';
import type {Selection} from '../catalogue/select-model.js';
import type {CredentialSources} from '../catalogue/credential-for.js';
import type {Secrets} from '../tools/run-command.js';
import type {ProviderChoice} from '../catalogue/provider-choices.js';
import type {SavedChoice} from '../config/save-model-choice.js';
import {configPath} from '../config/load-config.js';
import {providerOfProtocol} from '../auth/auth-subjects.js';
import type {ModelConfig} from '../config/schema.js';
import {readInstructions, sessionHolds, type InstructionsReload, type SessionInstructions} from './session-instructions.js';
import {replaceInstructions, withInstructions} from '../resources/instructions-block.js';
import {prepareMcp} from '../mcp/start-mcp.js';
import {McpHandle} from '../mcp/mcp-handle.js';

/** What set-up needs from a head besides the start's own options: `i`'s flags, or the core API's options. */
export interface SetupOptions extends StartOptions, ExtensionOptions, ResourceOptions {
	/** A session file to resume or create (`--session`). */
	session?: string | undefined;
	/** A named session of the workspace (`--session-name`). */
	sessionName?: string | undefined;
	/** `--continue`: the workspace's latest session (sessions/start-session.ts). */
	continueLatest?: boolean | undefined;
	/** The first message when the head knows it before set-up (`-p TEXT`): a new session takes its name at once. */
	firstMessage?: string | undefined;
	/** The chat screen: a new session is named after its first message once it is saved (sessions/start-session.ts). */
	nameLater?: boolean | undefined;
	/** Model requests one turn may make (`--max-steps`); the config's max_steps by default. */
	maxSteps?: number | undefined;
	/** Every tool call runs without asking (`--yolo`). */
	yolo?: boolean | undefined;
	/** `--api-key`: the key for the provider the config selects, this run only (never stored, never shown). */
	apiKey?: string | undefined;
	/** False (`--no-agents-md`): no AGENTS.md is read into the system prompt (project-instructions.ts). */
	agentsMd?: boolean | undefined;
	/**
	 * When the MCP servers start: at session start (the default), or when the
	 * model first asks for a tool (a one-shot: one answered at once never
	 * loads the SDK or starts a server; README "MCP servers").
	 */
	mcpStart?: 'session' | 'first-tool-call' | undefined;
}

/** What a head needs to run turns: everything but the input and the signal, and a way to end. */
export type Agent = Omit<TurnContext, 'signal' | 'delivery'> & {
	session: Session;
	/** The workspace's sessions folder (`<data_dir>/workspaces/<id>/sessions`): where /clear, /fork and /resume work. */
	sessionFolder: string;
	/** The extensions' appendEntry and sendMessage queue; a head that can start a run gives it a RunStarter, and /clear its new session. */
	delivery: MessageDelivery;
	/** Loaded extensions by name, each with the path it came from: names the extension behind an unhandled rejection. */
	extensionFiles: ReadonlyMap<string, string>;
	/** The extensions' slash commands and Markdown transformers, for the chat screen. */
	extensionUi: ExtensionUi;
	/**
	 * Loads every extension again (/reload), from `extensions` instead of the
	 * start's --extension paths when given (i dev's new build). The old
	 * generation hears SessionShutdown and the new one SessionStart, both
	 * with reason `reload`; on any failure the old one stays and nothing of
	 * the new one runs. The head puts `agent` in place of its fields.
	 */
	reloadExtensions(request: {sessionId: string; sessionPath: string; extensions?: readonly string[]}): Promise<ExtensionReload>;
	/**
	 * The folders a prompt `/name …` finds its template in, first first; null
	 * when no prompts module expands templates (the chat screen then treats
	 * an unknown `/name` as an unknown command).
	 */
	promptTemplateFolders: readonly string[] | null;
	/**
	 * Lends the extensions' `api.runtime` actions a service (runtime-link.ts):
	 * set-up provides what the core can do, the head what only it can (a
	 * dialog, starting a run). Kept across /reload: the new generation gets
	 * the same services, the old one's actions refuse as stale.
	 */
	provideRuntime(services: RuntimeServices): void;
	/** The host's child agents (`delegate_task`, `api.runtime.childAgent`). */
	children: ChildAgents;
	/**
	 * The head opened another session (/clear): every child is cancelled and
	 * disposed, and the extensions' deliveries go to `next`. The head puts
	 * `next` in place of `session` itself (later children read it from there).
	 */
	switchSession(next: Session): Promise<void>;
	/**
	 * The model catalogue of this generation (built-ins, the extensions' `declare({providers})`, models.json):
	 * public descriptions only, never a header or a key. Built at start (a run that chose by `protocol` reads its
	 * model's prices from it, and a broken models.json is then only a warning); /reload builds it again.
	 */
	loadCatalogue(): Promise<Catalogue>;
	/** The catalogue provider and model the run uses; null when the config chose by `protocol` (README "Choosing a model"). */
	selected: {provider: string; model: string} | null;
	/** The catalogue's providers for a chooser, those whose key resolves first (provider-choices.ts). */
	providerChoices(): Promise<ProviderChoice[]>;
	/**
	 * Switches the running session to a catalogue model (/provider, /model):
	 * the caller is built (its key resolved) and the choice saved as the
	 * default in config.json before the session takes it, so a switch that
	 * lacks auth or fails leaves the session and the file as they were.
	 * `ModelSelect` fires once it is taken. The head puts `caller` and
	 * `selected` in place of its own.
	 */
	switchModel(target: {provider: string | undefined; model: string | undefined; origin: string}): Promise<ModelSwitch>;
	/** `/provider remove ID`: removes the person's models.json entry for ID (never the one in use) and builds the catalogue again; `message` says what happened or why not. */
	removeProvider(id: string): Promise<{ok: boolean; message: string}>;
	/** The AGENTS.md files in this session's system prompt (session-instructions.ts), for /context. */
	instructions: SessionInstructions;
	/**
	 * Reads the AGENTS.md files again (/reload, and /clear for the new
	 * session): the session's saved system prompt gets the new block in place
	 * of the old one (saved, so a resume keeps it; one cache miss, asked for),
	 * and new sessions start with it. The head puts `systemPrompt` and
	 * `instructions` in place of its own.
	 */
	reloadInstructions(): Promise<InstructionsReload>;
	/** The MCP servers of the run (`/mcp`, prompt commands, `@server:uri`); their tools reach turns through `moreTools`. */
	mcp: McpHandle;
	/** Ends the children, the workers and the MCP servers and releases the session. */
	close(): Promise<void>;
};

export type ModelSwitch = {ok: true; caller: ModelCaller; selected: {provider: string; model: string}; saved: SavedChoice | null; credentialSource: string} | {ok: false; reason: string};

export type ExtensionReload =
	| {ok: true; warnings: string[]; loaded: number; agent: Pick<Agent, 'caller' | 'tools' | 'extensionEvents' | 'emit' | 'extensionFiles' | 'extensionUi' | 'selected'>}
	| {ok: false; problems: string[]};

/** Print and line mode have no terminal to ask on: an ask becomes a denial the model and the person both see. */
export const denyWithoutTerminal: AskPerson = async () => ({
	decision: 'deny',
	by: 'no_terminal',
	reason: 'approval is needed and there is no terminal to ask on; rerun with --yolo to allow tools without asking',
});

/**
 * Loads config, plugins, tools and session and runs the start-phase hooks;
 * `started` is the config and plugins part, when the head began it earlier
 * (startPlugins), and `extensions` the extensions' start, when the head
 * found them and loaded the first of them itself (the chat screen, for
 * BeforeTuiStart).
 * A problem with flags or files is a UsageError (exit 2); a start-phase hook
 * that fails vetoes the start (exit 3). Anything set up before a failure is
 * torn down again.
 */
export async function setupAgent(
	options: SetupOptions,
	headEmit: EmitEvent,
	askPerson: AskPerson = denyWithoutTerminal,
	signal?: AbortSignal,
	started: Promise<StartedPlugins> = startPlugins(options),
	extensions?: ExtensionStartup,
): Promise<Agent> {
	const {dirs, workspace, loaded, plugins, warnings, pool} = await unlessAborted(started, signal);
	const {config} = loaded;
	for (const message of warnings) headEmit({type: 'warning', message});
	let session: Session | undefined;
	try {
		const hooks = pool ? createHookChain(plugins.hooks, pool) : emptyHookChain;
		// A catalogue selection (--provider, --model, the config's "provider") is made once the extensions declared theirs.
		// A switch (/provider, /model) replaces it: a later /reload binds the new choice.
		let selection = catalogueSelection(options, loaded);
		// --api-key is for the provider this run started with; a switch takes it along only to that provider.
		const flagProvider = selection?.provider ?? (config.protocol === undefined ? undefined : providerOfProtocol(config.protocol));
		// The key of a config that chooses by protocol, whatever its source (--api-key, auth.json, a variable), is resolved once;
		// a catalogue selection's is resolved by selectModel through the same resolveCredential (credential-for.ts).
		const credential = selection
			? undefined
			: runCredential(loaded, {hostSendsKey: !(plugins.provider && pool) && config.protocol !== undefined && isProtocol(config.protocol), apiKeyFlag: options.apiKey, configDir: dirs.config_dir});
		// Null for a protocol no built-in adapter or provider worker speaks: an extension's provider may (extensionCaller).
		const builtin = credential ? modelCaller(loaded, plugins, pool, credential.key, {dirs, workspace, warn: message => headEmit({type: 'warning', message})}) : null;
		// What a child inherits, as it is when the child starts: /reload and a session switch change it.
		// What a child inherits besides the live caller, tools and session (read from live() when it starts): /reload changes it.
		let parent: Omit<ChildParent, 'caller' | 'tools' | 'session'> | undefined;
		const children = new ChildAgents(() => {
			if (!parent) throw new Error('a child agent was started before the agent was set up');
			const {caller, tools, session} = live;
			// The MCP servers' tools ready when the child starts join the parent's (a child's own list does not change while it runs).
			return {...parent, caller, tools: [...tools, ...mcp.tools()], session};
		});
		// What the shell tool hides, read at each command: a catalogue selection adds its provider's once its key is resolved.
		const secrets = {names: [...(credential?.secrets.names ?? [])], values: [...(credential?.secrets.values ?? [])]};
		// Where a catalogue selection's key is looked for; --api-key goes to the selected provider only (a switch to another drops it).
		const credentialSources: CredentialSources = {apiKeyFlag: options.apiKey, configDir: dirs.config_dir};
		const coreTools = [...createNativeTools({secrets, children}), ...(pool ? await externalTools(plugins, pool) : [])];
		// The extensions load while the session file is read; a start without them pays nearly nothing for the look.
		const opening = openStartSession(options, workspace, dirs, message => headEmit({type: 'warning', message}));
		const extensionContext: StartContext = {
			workspace,
			dirs,
			takenToolNames: new Map(coreTools.map(tool => [tool.name, tool.external ? 'a worker tool' : 'a native tool'])),
			report: message => headEmit({type: 'warning', message}),
		};
		const starting = extensions ? extensions.start(extensionContext) : startExtensions(options, extensionContext);
		// One generation's catalogue, models.json over it; `strict`: a broken models.json stops what asked for it.
		const catalogueFor = async (source: StartedExtensions, strict: boolean) => catalogueOf(source, {configDir: dirs.config_dir, workspace, strict});
		/**
		 * The caller a generation of extensions gives, with that generation's catalogue: a catalogue selection
		 * is made (its key resolved, the shell tool told to hide it); a config that chooses by protocol keeps the
		 * built-in caller or its extension provider, priced from the catalogue (a broken models.json is then only a warning).
		 */
		const bindModel = async (started: StartedExtensions) => {
			if (selection) {
				const catalogue = await catalogueFor(started, true);
				const chosen = await chooseModel(selection, catalogue.built, started.providers, config, credentialSources);
				return {caller: chosen.caller, catalogue, selected: {provider: chosen.choice.provider.id, model: chosen.choice.model.id}, secrets: chosen.secrets};
			}

			const caller = builtin ?? (await extensionCaller(loaded, started.providers));
			const catalogue = await catalogueFor(started, false);
			return {caller: await withProtocolPrices(caller, catalogue, config), catalogue, selected: null, secrets: undefined};
		};

		// An extension provider's id is known once the extensions loaded; a config naming none of theirs fails like an unclaimed flag.
		const calling = starting.then(bindModel);
		const [loadedExtensions, opened, first] = await Promise.all([starting, opening, calling]).catch(async (error: unknown) => {
			// One of the two failed: a session that did open is released again (its lock above all).
			await opening.then(
				async opened => opened.session.close(),
				() => {},
			);
			throw error;
		});
		session = opened.session;
		if (opened.notice) headEmit({type: 'warning', message: opened.notice});
		if (first.secrets) addSecrets(secrets, first.secrets);
		let caller = first.caller;
		// The loaded generation's catalogue, and the extensions it came from.
		let catalogue = first.catalogue;
		let catalogueSource: StartedExtensions = loadedExtensions;
		let selected = first.selected;
		const events = loadedExtensions.events;
		// The MCP servers start in the background: neither the first frame nor a turn that does not use them waits (README "MCP servers").
		const mcp = new McpHandle(
			prepareMcp({
				workspace,
				dirs,
				trustProject: options.trustProject,
				events,
				takenToolNames: new Map([...extensionContext.takenToolNames, ...loadedExtensions.tools.map(tool => [tool.name, 'an extension tool'] as const)]),
				clientVersion: (await import('../../version.js')).version(),
				report: message => headEmit({type: 'warning', message}),
			}),
		);
		if (options.mcpStart !== 'first-tool-call') mcp.begin();
		// A one-shot's servers start with its first tool call, behind the model's first answer.
		const toHead: EmitEvent =
			options.mcpStart === 'first-tool-call'
				? event => {
						if (event.type === 'tool_call') mcp.begin();
						headEmit(event);
					}
				: headEmit;
		// With extension handlers, the head's events also reach the observers (MessageUpdate, ToolExecution*).
		const emit = await withObservers(events, toHead);
		// The generation the heads' events and the shutdown go to: /reload replaces it.
		let current = events;
		let generation = 0;
		let runtime: RuntimeLink = loadedExtensions.runtime;
		const services: RuntimeServices = {};
		for (const message of [...loadedExtensions.warnings, ...catalogue.warnings]) emit({type: 'warning', message});
		const tools = [...coreTools, ...loadedExtensions.tools];
		// The caller, tools and session now: /reload and a session switch (switchSession) replace them, as the head does its own.
		let live: LiveAgent = {caller, tools, session};
		const executionContext = executionContextService(() => live, {workspace, thinking: thinkingSetting(config.extra_body)});
		services.getExecutionContext = executionContext;
		runtime.provide(services);
		const resources = await loadResources('startup', options, {
			workspace,
			settings: loadedExtensions.settings,
			discoverers: loadedExtensions.discoverers,
			events,
			report: message => emit({type: 'warning', message}),
		});
		for (const message of [...resources.warnings, ...unusedFolderFlags(options, plugins)]) emit({type: 'warning', message});
		pool?.setResources(resources.folders);
		emit({
			type: 'session',
			id: session.id,
			path: session.path,
			workspace,
			resumed_messages: session.messages.length,
			dropped: session.dropped,
		});
		// The start hooks wait for the worker host's first answers: time in which the transport can load.
		if (hooks.has('system_prompt') || hooks.has('session_load')) caller.warmUp?.();
		// The AGENTS.md files are read while the start hooks run; a file that cannot be used is a notice, never a failed start.
		const instructionsWhere = {enabled: options.agentsMd !== false, workspace, configDir: dirs.config_dir};
		const reading = readInstructions(instructionsWhere);
		const basePrompt = await startHooks(hooks, session, workspace, signal);
		const read = await reading;
		for (const message of read.notices) emit({type: 'warning', message});
		let systemPrompt = withInstructions(basePrompt, read.block);
		let instructions: SessionInstructions = {files: read.files, block: read.block, inSession: sessionHolds(session, read.block), enabled: instructionsWhere.enabled};
		const resumed = session.messages.length > 0;
		// Before SessionStart, so its handlers can use them. appendEntry and sendMessage (seed 004 §3): the core queues and commits; a head that can start a run lends its RunStarter.
		const delivery = new MessageDelivery({session, emit, systemPrompt});
		await delivery.resume();
		// The checks' schemas load with the first delivery: a run without one never builds them.
		const deliveryChecks = async () => import('../extensions/check-delivery.js');
		services.appendEntry = async (extension, request) => delivery.appendEntry(extension, (await deliveryChecks()).checkAppendEntry(extension, request));
		services.sendMessage = async (extension, request) => delivery.sendMessage(extension, (await deliveryChecks()).checkSendMessage(extension, request));
		const policy: ApprovalPolicy | undefined = hooks.has('tool_approval') ? async (data, signal) => hooks.run('tool_approval', data, {signal}) : undefined;
		const yolo = options.yolo === true;
		parent = {
			hooks,
			extensionEvents: events,
			beforeAgentStart: loadedExtensions.beforeAgentStart,
			workspace,
			systemPrompt,
			budget: config.budget ?? null,
			maxTokens: config.max_tokens ?? null,
			emit,
			// A child's questions go to the parent's screen, saying whose they are; with no one to ask they are denied (denyWithoutTerminal).
			gate: label =>
				createApprovalGate({
					yolo,
					askPerson: async (request, signal) => askPerson({...request, ask: {...request.ask, title: `${label}: ${request.ask.title}`}}, signal),
					...(policy ? {policy} : {}),
				}),
		};
		services.childAgent = childAgentService(children);
		runtime.provide(services);
		await events?.advisory('SessionStart', {reason: resumed ? 'resume' : 'startup', sessionId: session.id, path: session.path, cwd: workspace});
		return {
			delivery,
			caller,
			tools,
			moreTools: () => mcp.tools(),
			mcp,
			session,
			sessionFolder: opened.folder,
			extensionFiles: loadedExtensions.files,
			extensionUi: loadedExtensions.ui,
			extensionEvents: events,
			beforeAgentStart: loadedExtensions.beforeAgentStart,
			promptTemplateFolders: expandsTemplates(plugins) ? templateFolders(resources.folders, workspace) : null,
			gate: createApprovalGate({yolo, askPerson, ...(policy ? {policy} : {})}),
			children,
			async switchSession(next) {
				await children.cleanUp('the session was switched');
				live = {...live, session: next};
				delivery.switchSession(next);
			},
			hooks,
			emit,
			workspace,
			systemPrompt,
			instructions,
			async reloadInstructions() {
				const again = await readInstructions(instructionsWhere);
				const {session: current} = live;
				const first = current.messages[0];
				let changed = false;
				if (first?.role === 'system') {
					const next = replaceInstructions(first.content, again.block, instructions.block);
					if (next !== first.content) {
						await current.replaceHistory([{...first, content: next}, ...current.messages.slice(1)]);
						changed = true;
					}
				}

				systemPrompt = withInstructions(basePrompt, again.block);
				instructions = {files: again.files, block: again.block, inSession: true, enabled: instructionsWhere.enabled};
				delivery.setSystemPrompt(systemPrompt);
				if (parent) parent = {...parent, systemPrompt};
				return {systemPrompt, instructions, notices: again.notices, changed};
			},
			budget: config.budget ?? null,
			maxTokens: config.max_tokens ?? null,
			maxSteps: options.maxSteps ?? config.max_steps,
			async reloadExtensions(request) {
				generation += 1;
				let next: StartedExtensions;
				try {
					next = await startExtensions(request.extensions === undefined ? options : {...options, extensions: request.extensions}, extensionContext, generation);
				} catch (error) {
					return {ok: false, problems: [errorMessage(error)]};
				}

				// Any extension that fails keeps the previous generation whole (seed §7): nothing of the new one is fired or offered.
				if (next.failed > 0) return {ok: false, problems: next.warnings};
				// The config's extension provider is the new generation's; one that is gone keeps the old generation too.
				// A catalogue selection is made again: providers, keys, endpoints and the catalogue are bound afresh (seed appendix "认证与重载").
				let bound: Awaited<ReturnType<typeof bindModel>>;
				try {
					bound = await bindModel(next);
				} catch (error) {
					return {ok: false, problems: [...next.warnings, errorMessage(error)]};
				}

				// Added, not replaced: a command may still hold the old key in its output.
				if (bound.secrets) addSecrets(secrets, bound.secrets);

				// The new generation is taken: the old one's children go with it (its handles are gone, its actions refuse as stale).
				await children.cleanUp('the extensions were reloaded', task => task.owner !== CORE_OWNER);
				if (current) {
					await settledWithin(current.drained(), SHUTDOWN_DRAIN_MS);
					await current.advisory('SessionShutdown', {reason: 'reload', sessionId: request.sessionId});
				}

				current = next.events;
				runtime.close();
				runtime = next.runtime;
				runtime.provide(services);
				const nextEmit = await withObservers(current, toHead);
				delivery.emitTo(nextEmit);
				// The skill and prompt folders are found again (settings, discover handlers) and reach the modules from the next request on.
				const warnings = [...next.warnings, ...bound.catalogue.warnings];
				const found = await loadResources('reload', options, {workspace, settings: next.settings, discoverers: next.discoverers, events: current, report: message => warnings.push(message)});
				warnings.push(...found.warnings);
				pool?.setResources(found.folders);
				await current?.advisory('SessionStart', {reason: 'reload', sessionId: request.sessionId, path: request.sessionPath, cwd: workspace});
				caller = bound.caller;
				catalogue = bound.catalogue;
				catalogueSource = next;
				selected = bound.selected;
				const nextTools = [...coreTools, ...next.tools];
				live = {...live, caller, tools: nextTools};
				if (parent) parent = {...parent, extensionEvents: current, beforeAgentStart: next.beforeAgentStart, emit: nextEmit};
				return {
					ok: true,
					warnings,
					loaded: next.files.size,
					agent: {
						caller,
						tools: nextTools,
						extensionEvents: current,
						emit: nextEmit,
						extensionFiles: next.files,
						extensionUi: next.ui,
						beforeAgentStart: next.beforeAgentStart,
						promptTemplateFolders: expandsTemplates(plugins) ? templateFolders(found.folders, workspace) : null,
						selected,
					},
				};
			},
			async loadCatalogue() {
				return catalogue.built.catalogue;
			},
			get selected() {
				return selected;
			},
			async providerChoices() {
				return (await import('../catalogue/provider-choices.js')).providerChoices(catalogue.built, {configDir: dirs.config_dir});
			},
			async removeProvider(id) {
				if (selected?.provider === id) return {ok: false, message: `${id} is the provider this session uses: switch to another (/provider) before removing it`};
				const {removeProvider} = await import('../catalogue/remove-models-entry.js');
				return removeProvider(id, {
					global: join(dirs.config_dir, 'models.json'),
					project: join(workspace, '.i', 'models.json'),
					before: catalogue.built.catalogue,
					// The catalogue is built again, so the pickers no longer offer what was removed.
					async rebuild() {
						catalogue = await catalogueFor(catalogueSource, false);
						return catalogue.built.catalogue;
					},
				});
			},
			async switchModel(target) {
				// The catalogue of the loaded generation.
				const built = catalogue;
				let chosen: Awaited<ReturnType<typeof chooseModel>>;
				const next: Selection = {provider: target.provider, model: target.model, origin: target.origin};
				try {
					const {resolveSelection} = await import('../catalogue/select-model.js');
					const provider = resolveSelection(next, built.built).provider.id;
					chosen = await chooseModel(next, built.built, catalogueSource.providers, config, {...credentialSources, apiKeyFlag: provider === flagProvider ? options.apiKey : undefined});
				} catch (error) {
					return {ok: false, reason: errorMessage(error)};
				}

				const choice = {provider: chosen.choice.provider.id, model: chosen.choice.model.id};
				// Saved before the session takes it: a default that cannot be written leaves both as they were.
				let saved: SavedChoice | null = null;
				if (typeof options.config !== 'object') {
					try {
						saved = await (await import('../config/save-model-choice.js')).saveModelChoice(configPath(options.config, dirs.config_dir), choice);
					} catch (error) {
						return {ok: false, reason: errorMessage(error)};
					}
				}

				const previous = selected ?? {provider: flagProvider ?? null, model: caller.model};
				addSecrets(secrets, chosen.secrets);
				// A /reload binds this choice again, with --api-key only when it is still the run's first provider.
				credentialSources.apiKeyFlag = choice.provider === flagProvider ? options.apiKey : undefined;
				caller = chosen.caller;
				selection = {...next, provider: choice.provider, model: choice.model};
				catalogue = built;
				selected = choice;
				live = {...live, caller};
				current?.observe('ModelSelect', {provider: choice.provider, model: choice.model, previous, source: target.origin, sessionId: live.session.id});
				return {ok: true, caller, selected: choice, saved, credentialSource: chosen.credentialSource};
			},
			provideRuntime(provided) {
				Object.assign(services, provided);
				runtime.provide(provided);
			},
			async close() {
				// The parent ends: its children end first, so their sessions are saved and closed before the workers go.
				await children.close('the parent agent ended');
				if (current) {
					// What the turn's observers still have queued comes first: the shutdown is the last thing they hear.
					await settledWithin(current.drained(), SHUTDOWN_DRAIN_MS);
					await current.advisory('SessionShutdown', {reason: 'exit', sessionId: live.session.id});
				}

				runtime.close();

				// The session now (after /clear, /resume or /fork) and the one it started with: closing one twice is a no-op.
				await Promise.all([live.session.close(), opened.session.close(), pool?.close(), mcp.close()]);
			},
		};
	} catch (error) {
		await Promise.all([session?.close(), pool?.close()]);
		throw error;
	}
}

/** The head's emit, also feeding the extensions' observers when there are any. */
async function withObservers(events: EventBus | null, headEmit: EmitEvent): Promise<EmitEvent> {
	return events ? (await import('../extensions/observe-core-events.js')).observeCoreEvents(events, headEmit) : headEmit;
}

/** At the end, observers still queued get this long to take their events; a slow one is not waited for. */
export const SHUTDOWN_DRAIN_MS = 1000;

/**
 * `started`, or the signal's reason as soon as it aborts: a head that began
 * the start itself (the chat screen) ends at once on a signal instead of
 * after the start finishes (a registry lock may hold it for seconds). A
 * start that finishes after all has its workers closed.
 */
async function unlessAborted(started: Promise<StartedPlugins>, signal: AbortSignal | undefined): Promise<StartedPlugins> {
	if (!signal) return started;
	return new Promise((resolve, reject) => {
		const onAbort = () => {
			reject(signal.reason);
			started
				.then(
					async ({pool}) => pool?.close(),
					() => {},
				)
				.catch(() => {});
		};

		if (signal.aborted) {
			onAbort();
			return;
		}

		signal.addEventListener('abort', onAbort, {once: true});
		started.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
	});
}

async function externalTools(plugins: LoadedPlugins, pool: WorkerPool): Promise<Tool[]> {
	if (plugins.tools.length === 0) return [];
	const {createExternalTool} = await import('../tools/external-tool.js');
	return plugins.tools.map(tool => createExternalTool(tool, pool));
}

/**
 * What chooses the model by catalogue: `--provider` / `--model` for this
 * run (over the config's choice), else the config's `provider` (a
 * catalogue id) and `model`; undefined for a config that chooses by
 * `protocol`, which keeps the built-in adapter, a provider worker or an
 * extension provider as before.
 */
function catalogueSelection(options: SetupOptions, loaded: LoadedConfig): Selection | undefined {
	const {config} = loaded;
	const configured = typeof config.provider === 'string' ? config.provider : undefined;
	if (options.provider !== undefined || options.model !== undefined) {
		// --provider alone keeps the config's model when it is that provider's; else the provider's first.
		const model = options.model ?? (options.provider === configured ? config.model : undefined);
		return {provider: options.provider, model, origin: options.model !== undefined ? '--model' : '--provider'};
	}

	if (configured !== undefined) return {provider: configured, model: config.model, origin: `config ${loaded.path}`};
	return undefined;
}

interface GenerationCatalogue {
	built: import('../catalogue/build-catalogue.js').BuiltCatalogue;
	warnings: string[];
}

/**
 * The catalogue of one generation of extensions, with models.json over it.
 * With a catalogue selection a broken models.json stops the start (it may
 * be what routes the key); otherwise the run does not use it, and the
 * problem is a warning.
 */
async function catalogueOf(started: StartedExtensions, where: {configDir: string; workspace: string; strict: boolean}): Promise<GenerationCatalogue> {
	const [{readModelsFiles}, {buildCatalogue}] = await Promise.all([import('../catalogue/models-file.js'), import('../catalogue/build-catalogue.js')]);
	try {
		const built = buildCatalogue(started.catalogue, await readModelsFiles(where.configDir, where.workspace));
		return {built, warnings: built.warnings};
	} catch (error) {
		if (where.strict || !(error instanceof UsageError)) throw error;
		return {built: buildCatalogue(started.catalogue, []), warnings: [`${errorMessage(error)} (this run chooses its model by "protocol", so it goes on without models.json)`]};
	}
}

async function chooseModel(selection: Selection, built: GenerationCatalogue['built'], providers: ReadonlyMap<string, OwnedProvider>, config: ModelConfig, sources: CredentialSources) {
	return (await import('../catalogue/select-model.js')).selectModel(selection, built, providers, config, sources);
}

/** The caller with its model's catalogue prices, for a config that chooses by protocol. */
async function withProtocolPrices(caller: ModelCaller, catalogue: GenerationCatalogue, config: ModelConfig): Promise<ModelCaller> {
	const {protocolPrices} = await import('../catalogue/select-model.js');
	const prices = config.protocol === undefined || config.model === undefined ? undefined : protocolPrices(catalogue.built, config.protocol, config.model);
	return prices ? {...caller, prices} : caller;
}

/** Adds what `more` hides to what the shell tool hides, once each. */
function addSecrets(secrets: {names: string[]; values: string[]}, more: Secrets): void {
	for (const name of more.names) if (!secrets.names.includes(name)) secrets.names.push(name);
	for (const value of more.values) if (!secrets.values.includes(value)) secrets.values.push(value);
}

/**
 * The built-in HTTP adapters, or the provider worker when one is bound (the
 * API config's binding wins, see load-plugins); null when the protocol is
 * neither, which an extension provider may then be (extensionCaller).
 */
function modelCaller(loaded: LoadedConfig, plugins: LoadedPlugins, pool: WorkerPool | null, apiKey: string | undefined, where: FilesPlace): ModelCaller | null {
	const {config} = loaded;
	if (plugins.provider && pool) {
		return createWorkerProviderCaller({
			pool,
			worker: plugins.provider,
			protocol: config.protocol ?? '',
			model: model(loaded),
			...(config.max_tokens === undefined ? {} : {maxTokens: config.max_tokens}),
			extraBody: config.extra_body,
		});
	}

	const {protocol} = config;
	if (protocol === undefined || !isProtocol(protocol)) return null;
	if (apiKey === undefined) throw new Error('a built-in protocol was set up without a key');
	const adapter = createAdapter(protocol, {
		model: model(loaded),
		baseUrl: config.base_url ?? '',
		...(config.max_tokens === undefined ? {} : {maxTokens: config.max_tokens}),
		useMaxTokens: config.use_max_tokens,
		extraBody: config.extra_body,
	});
	// provider.json is the built-in adapters' (seed §4): the Files channel runs only with both authorisations.
	const provider = loadProviderFile(where.dirs);
	const files = filesChannelAuthorised(loaded, provider) ? lazyFilesChannel(loaded, provider, adapter.headers(apiKey), where) : undefined;
	return createHttpCaller({adapter, apiKey, model: model(loaded), http: {maxRetries: config.max_retries}, ...(files ? {files} : {})});
}

/** A config that chooses by `protocol` has its model (checkModelConfig); only a catalogue selection may leave it out. */
function model(loaded: LoadedConfig): string {
	if (loaded.config.model === undefined) throw new UsageError(`config ${loaded.path}: missing field "model"`);
	return loaded.config.model;
}

/** Where the Files channel keeps its registry, and how it warns. */
interface FilesPlace {
	dirs: PlatformDirs;
	workspace: string;
	warn: (message: string) => void;
}

/** The DeepSeek Files channel, its code loaded (and the workspace registered) at the first request that carries an image. */
function lazyFilesChannel(loaded: LoadedConfig, provider: LoadedProviderFile, headers: Record<string, string>, where: FilesPlace): FilesChannel {
	const baseUrl = loaded.config.base_url ?? defaultBaseUrls.deepseek;
	let channel: Promise<FilesChannel> | undefined;
	const open = async (): Promise<FilesChannel> => {
		const [{DeepSeekFilesChannel}, {FileRegistry, registryPath}, {workspaceId}] = await Promise.all([
			import('../providers/deepseek-files/channel.js'),
			import('../providers/deepseek-files/registry.js'),
			import('../config/workspace-registry.js'),
		]);
		return new DeepSeekFilesChannel({
			baseUrl,
			headers,
			config: provider.config,
			accountScope: accountScope(loaded, provider.config, baseUrl),
			registry: async () => new FileRegistry(registryPath(where.dirs, await workspaceId(where.workspace, where.dirs))),
			retry: {maxRetries: loaded.config.max_retries},
			warn: where.warn,
		});
	};

	return {
		async reference(messages, signal) {
			// Nothing to upload: no image, and nothing loaded for it.
			if (!messages.some(message => message.role === 'user' && typeof message.content !== 'string' && message.content.some(part => part.type === 'image_url'))) return new Map();
			// A failed load (a broken workspace registry) is tried again at the next request, not remembered.
			channel ??= open().catch((error: unknown) => {
				channel = undefined;
				throw error;
			});
			return (await channel).reference(messages, signal);
		},
	};
}

/** The extension provider the config's `protocol` names (EXTENSIONS.md "Providers"); one no loaded extension registered is a usage error saying what there is. */
async function extensionCaller(loaded: LoadedConfig, providers: ReadonlyMap<string, OwnedProvider>): Promise<ModelCaller> {
	const {config} = loaded;
	const owned = config.protocol === undefined ? undefined : providers.get(config.protocol);
	if (!owned) {
		const registered = providers.size === 0 ? 'the loaded extensions registered no provider' : `the loaded extensions registered ${[...providers.keys()].join(', ')}`;
		throw new UsageError(
			`config ${loaded.path}: field "protocol": ${JSON.stringify(config.protocol)} is neither a built-in protocol (${protocols.join(', ')}) nor a provider a loaded extension registered (${registered}); ` +
				'load the extension that provides it, bind a provider worker ("provider") that speaks it, or pick one of those',
		);
	}

	const {createExtensionProviderCaller} = await import('../extensions/extension-provider.js');
	return createExtensionProviderCaller(owned, {model: model(loaded), ...(config.max_tokens === undefined ? {} : {maxTokens: config.max_tokens}), extraBody: config.extra_body});
}

/**
 * The config's thinking setting for getExecutionContext: there is no field
 * of its own, so the first of `extra_body`'s reasoning_effort (OpenAI),
 * thinking (Anthropic, DeepSeek) and reasoning (Responses) that is set, as
 * written; null when none is.
 */
function thinkingSetting(extraBody: Record<string, unknown>): unknown {
	for (const key of ['reasoning_effort', 'thinking', 'reasoning']) if (extraBody[key] !== undefined) return extraBody[key];
	return null;
}

/** The prompts module's hook that expands `/name …`: without it a template folder has no one to read it. */
function expandsTemplates(plugins: LoadedPlugins): boolean {
	return plugins.hooks.some(hook => hook.module === 'prompts' && (hook.events.includes('user_input') || hook.events.includes('*')));
}

function templateFolders(folders: ResourceFolders | undefined, workspace: string): string[] {
	return folders?.prompts?.map(folder => folder.path) ?? [join(workspace, PROJECT_PROMPT_FOLDER)];
}

/** `--skill` and `--prompt-template` with no module to read their folders: said, since nothing else would show it. */
function unusedFolderFlags(options: SetupOptions, plugins: LoadedPlugins): string[] {
	const has = (module: string) => plugins.hooks.some(hook => hook.module === module) || plugins.tools.some(tool => tool.module === module);
	const warnings: string[] = [];
	if ((options.skills?.length ?? 0) > 0 && !has('skills')) warnings.push('--skill: no skills module is configured (the skills, standard or full profile), so its folders are not read');
	if ((options.promptTemplates?.length ?? 0) > 0 && !expandsTemplates(plugins)) {
		warnings.push('--prompt-template: no prompts module is configured (the standard or full profile), so its templates are not expanded');
	}

	return warnings;
}

/**
 * `session_load` for every session, `system_prompt` for a new one. These run
 * before any turn: a failing hook vetoes the start. The workspace's
 * `.i/SYSTEM.md` then replaces what was chosen (the project's word beats the
 * global config's, seed 004 §8) and `.i/APPEND_SYSTEM.md` extends it.
 */
async function startHooks(hooks: HookChain, session: Session, workspace: string, signal: AbortSignal | undefined): Promise<string> {
	const fallback = renderSystemPrompt(workspace);
	const project = readProjectSystemPrompt(workspace);
	// Read while the hooks run; a failing hook's veto is what is reported then.
	project.catch(() => {});
	try {
		if (hooks.has('session_load')) await hooks.run('session_load', {messages: session.messages, session: {id: session.id, path: session.path}}, {signal});
		const chosen = session.messages.length > 0 || !hooks.has('system_prompt') ? fallback : readSystemPrompt(await hooks.run('system_prompt', {prompt: fallback, workspace}, {signal}));
		return applyProjectSystemPrompt(chosen, await project);
	} catch (error) {
		if (signal?.aborted) throw error;
		if (error instanceof HookError) throw new StartVetoError(`a plugin vetoed the start: ${errorMessage(error)}`);
		throw error;
	}
}
