import {errorMessage} from '../errors.js';
import type {EmitEvent} from '../events.js';
import type {UserContent} from '../messages.js';
import type {Tool} from '../tools/types.js';
import type {ModelCaller} from '../providers/model-caller.js';
import type {ModelConfig} from '../config/schema.js';
import type {HookChain} from '../lifecycle/hook-chain.js';
import type {EventBus} from '../extensions/event-bus.js';
import type {BeforeAgentStart} from '../extensions/before-agent-start.js';
import type {RuntimeServices} from '../extensions/runtime-link.js';
import type {Catalogue} from '../catalogue/catalogue.js';
import type {ProviderChoice} from '../catalogue/provider-choices.js';
import type {McpHandle} from '../mcp/mcp-handle.js';
import {createApprovalGate, type ApprovalGate, type ApprovalPolicy, type AskPerson, type PermissionCheck} from '../agent/approval-gate.js';
import type {PermissionMode} from '../agent/permission-mode.js';
import type {ChildAgents, ChildParent} from '../agent/child-agents.js';
import type {MessageDelivery} from '../agent/message-delivery.js';
import {compactNow, runTurn, type TurnContext, type TurnOutcome} from '../agent/run-turn.js';
import {CORE_OWNER} from '../child-request.js';
import type {ExtensionGenerations} from './extension-generations.js';
import type {ExtensionUi, StartedExtensions} from './start-extensions.js';
import type {InstructionsReload, SessionInstructions} from './session-instructions.js';
import type {ModuleFolders} from './module-folders.js';
import type {ResourceFolder} from '../resources/resource-folders.js';
import type {Bound, DefaultSave, ModelSwitch, Selected} from './model-binding.js';
import type {SessionPrompt} from './session-prompt.js';
import type {Session} from './session-store.js';
import {askBeforeSwitch, bracketSwitch, type SwitchGate, type SwitchReason} from './session-switch.js';
import type {RunPermissions} from './run-permissions.js';
import type {FileHistory} from '../rewind/file-history.js';
import {rewindPoints, type RewindPoint} from '../rewind/rewind-points.js';
import {planRewind, type RewindPlan} from '../rewind/plan-rewind.js';
import type {RewindChoice} from '../rewind/apply-rewind.js';
import {gatedRewind, type GatedRewind} from '../rewind/gated-rewind.js';

/**
 * The model a run calls and how it may change (model-binding.ts is the
 * run's; an embedder or a test may give a fixed one): the agent reads it
 * live, so a switch reaches every head at once.
 */
export interface AgentModel {
	readonly caller: ModelCaller;
	readonly selected: Selected | null;
	readonly catalogue: Catalogue;
	bind(started: StartedExtensions): Promise<Bound>;
	take(bound: Bound, started: StartedExtensions): void;
	switch(target: ModelTarget): Promise<ModelSwitch>;
	saveDefault(): Promise<DefaultSave>;
	choices(): Promise<ProviderChoice[]>;
	remove(id: string): Promise<{ok: boolean; message: string}>;
}

/** A model to switch to: a catalogue provider, a model id, or both; `origin` says who asked (`/model x`). */
export interface ModelTarget {
	provider: string | undefined;
	model: string | undefined;
	origin: string;
}

export type ExtensionReload = {ok: true; warnings: string[]; loaded: number} | {ok: false; problems: string[]};

/** What assembly (setup-agent.ts) gives the agent: each part is held here and nowhere else. */
export interface AgentParts {
	workspace: string;
	/** The workspace's sessions folder (`<data_dir>/workspaces/<id>/sessions`): where /clear, /fork and /resume work. */
	sessionFolder: string;
	session: Session;
	model: AgentModel;
	extensions: ExtensionGenerations;
	/** The native and worker tools; each generation's extension tools join them. */
	coreTools: readonly Tool[];
	hooks: HookChain;
	mcp: McpHandle;
	prompt: SessionPrompt;
	delivery: MessageDelivery;
	children: ChildAgents;
	/** `rules`: the settings files' permission rules (start-permissions.ts), undefined when there are none; `mode`: the run's permission mode, read at each call. */
	approval: {mode: PermissionMode; askPerson: AskPerson; policy: ApprovalPolicy | undefined; rules: PermissionCheck | undefined};
	/** The settings files' rules, which /permissions lists and changes; `approval.rules` is their check. Absent for an embedder's fixed rules. */
	permissions?: RunPermissions | undefined;
	/** The before-images of what edit and write changed (/rewind); absent: files cannot be rewound. */
	history?: FileHistory | undefined;
	limits: {budget: ModelConfig['budget'] | null; maxTokens: number | null; maxSteps: number};
	/** Ends what set-up started besides these parts (the worker pool, the session it opened first). */
	release: () => Promise<void>;
}

/**
 * The running agent: the one object print mode, line mode, the chat screen
 * and the core API hold, by reference. It owns the model, the tools, the
 * session, the extensions' generation, the system prompt and instructions,
 * MCP, child agents and message delivery; every change (a model switch,
 * /reload, /clear) happens here, so a head reads it as it is now and never
 * keeps a copy.
 */
export class Agent {
	readonly workspace: string;
	readonly sessionFolder: string;
	readonly hooks: HookChain;
	readonly mcp: McpHandle;
	readonly delivery: MessageDelivery;
	/** The host's child agents (`delegate_task`, `api.runtime.childAgent`). */
	readonly children: ChildAgents;
	/** The approval gate of the agent's own turns. */
	readonly gate: ApprovalGate;
	readonly budget: ModelConfig['budget'] | null;
	readonly maxTokens: number | null;
	/** Model requests one turn may make (`--max-steps`, the config's max_steps). */
	readonly maxSteps: number;
	readonly #parts: AgentParts;
	#session: Session;
	#tools: readonly Tool[];
	#closed: Promise<void> | undefined;

	constructor(parts: AgentParts) {
		this.#parts = parts;
		this.workspace = parts.workspace;
		this.sessionFolder = parts.sessionFolder;
		this.hooks = parts.hooks;
		this.mcp = parts.mcp;
		this.delivery = parts.delivery;
		this.children = parts.children;
		this.budget = parts.limits.budget;
		this.maxTokens = parts.limits.maxTokens;
		this.maxSteps = parts.limits.maxSteps;
		this.gate = createApprovalGate(parts.approval);
		this.#session = parts.session;
		this.#tools = [...parts.coreTools, ...parts.extensions.started.tools];
	}

	get session(): Session {
		return this.#session;
	}

	/** The run's permission mode (default, acceptEdits, plan, bypassPermissions): the gate and each model request read it as it is now. */
	get permissionMode(): PermissionMode {
		return this.#parts.approval.mode;
	}

	get caller(): ModelCaller {
		return this.#parts.model.caller;
	}

	/** The catalogue provider and model the run uses; null when the config chose by `protocol` (docs/providers.md). */
	get selected(): Selected | null {
		return this.#parts.model.selected;
	}

	/** The native, worker and extension tools (the MCP servers' come through `moreTools`, as they become ready). */
	get tools(): readonly Tool[] {
		return this.#tools;
	}

	/** The settings files' permission rules (/permissions); null when the agent was given fixed ones. */
	get permissions(): RunPermissions | null {
		return this.#parts.permissions ?? null;
	}

	/** The session's prompts, oldest first: what /rewind offers. */
	rewindPoints(): RewindPoint[] {
		return rewindPoints(this.#session.messages);
	}

	/** What rewinding to just before `point` would do: the history cut there, and the files edit and write changed since (plan-rewind.ts). */
	async planRewind(point: RewindPoint): Promise<RewindPlan> {
		return planRewind(this.#session.messages, point, this.#session.id, this.workspace, this.#parts.history ?? null);
	}

	/** Carries out a planned rewind as the person chose, unless an extension's SessionBeforeTree gate refuses (gated-rewind.ts). */
	async rewind(plan: RewindPlan, choice: RewindChoice): Promise<GatedRewind> {
		return gatedRewind(plan, choice, {session: this.#session, history: this.#parts.history ?? null, events: this.extensionEvents});
	}

	/** Extension event handlers of the loaded generation; null when none registered one. */
	get extensionEvents(): EventBus | null {
		return this.#parts.extensions.events;
	}

	get beforeAgentStart(): BeforeAgentStart | null {
		return this.#parts.extensions.started.beforeAgentStart;
	}

	/** The head's emit, with the loaded extensions' observers. */
	get emit(): EmitEvent {
		return this.#parts.extensions.emit;
	}

	/** The extensions' slash commands, Markdown transformers and renderers, for the chat screen. */
	get extensionUi(): ExtensionUi {
		return this.#parts.extensions.started.ui;
	}

	/** The folders a prompt `/name …` finds its template in, first first; null when no prompts module expands templates. */
	get promptTemplateFolders(): readonly string[] | null {
		return this.#parts.extensions.folders.prompts?.map(folder => folder.path) ?? null;
	}

	/** The folders the skills and prompts modules search, first first, for /context; null for a kind no module reads. */
	get resourceFolders(): ModuleFolders {
		return this.#parts.extensions.folders;
	}

	/** The folders the chat screen finds themes in, first first (core/resources/theme-folders.ts). */
	get themeFolders(): readonly ResourceFolder[] {
		return this.#parts.extensions.themeFolders;
	}

	/** The system prompt a new session starts with (after the `system_prompt` hook and AGENTS.md). */
	get systemPrompt(): string {
		return this.#parts.prompt.systemPrompt;
	}

	/** The AGENTS.md files in this session's system prompt, for /context. */
	get instructions(): SessionInstructions {
		return this.#parts.prompt.instructions;
	}

	/** The MCP servers' tools ready now: read once per model request. */
	moreTools(): readonly Tool[] {
		return this.mcp.tools();
	}

	/**
	 * One turn of the agent's own session (`input` null: a run an extension's
	 * `sendMessage` started, its message saved already). `emit` replaces the
	 * agent's for this turn (the core API's per-run listener). Never throws.
	 */
	async runTurn(input: UserContent | null, signal: AbortSignal, options: {emit?: EmitEvent} = {}): Promise<TurnOutcome> {
		return runTurn(input, this.#turnContext(signal, options.emit ?? this.emit));
	}

	/** Compaction on request (/compact): 'compacted', or why nothing was done; a failed compaction throws. */
	async compactNow(signal: AbortSignal): Promise<'compacted' | string> {
		return compactNow(this.#turnContext(signal, this.emit));
	}

	/**
	 * Puts `next` in place of the running session (/clear, /resume, /fork),
	 * bracketed by SessionShutdown and SessionStart with `reason`: every child
	 * is cancelled and disposed, the old session is saved and closed, and the
	 * extensions' deliveries go to `next`. Ask `mayLeaveSession` first.
	 */
	async switchSession(next: Session, reason: SwitchReason): Promise<void> {
		const previous = this.#session;
		await bracketSwitch(this.extensionEvents, {from: previous, to: next, reason, cwd: this.workspace}, async () => {
			await this.children.cleanUp('the session was switched');
			this.#session = next;
			this.delivery.switchSession(next);
			if (previous !== next) await previous.close();
		});
	}

	/** The extensions' SessionBeforeSwitch gate for leaving the running session (`targetPath`: where to; null for a fork not made yet). */
	async mayLeaveSession(reason: SwitchReason, targetPath: string | null): Promise<SwitchGate> {
		return askBeforeSwitch(this.extensionEvents, this.#session, reason, targetPath);
	}

	/**
	 * Switches the running session to a catalogue model (/provider, /model);
	 * config.json is not written (`saveModelDefault` does that). A switch
	 * that fails leaves the session as it was. `ModelSelect` fires once it is taken.
	 */
	async switchModel(target: ModelTarget): Promise<ModelSwitch> {
		const result = await this.#parts.model.switch(target);
		if (result.ok) {
			const {provider, model} = result.selected;
			this.extensionEvents?.observe('ModelSelect', {provider, model, previous: result.previous, source: target.origin, sessionId: this.#session.id});
		}

		return result;
	}

	/** Makes the session's catalogue choice the default in config.json (/model --default); refused, the file untouched, where that would delete a field. */
	async saveModelDefault(): Promise<DefaultSave> {
		return this.#parts.model.saveDefault();
	}

	/** The model catalogue of the loaded generation: public descriptions only, never a header or a key. */
	async loadCatalogue(): Promise<Catalogue> {
		return this.#parts.model.catalogue;
	}

	/** The catalogue's providers for a chooser, those whose key resolves first. */
	async providerChoices(): Promise<ProviderChoice[]> {
		return this.#parts.model.choices();
	}

	/** `/provider remove ID`: removes the person's models.json entry for ID (never the one in use); `message` says what happened or why not. */
	async removeProvider(id: string): Promise<{ok: boolean; message: string}> {
		return this.#parts.model.remove(id);
	}

	/**
	 * Loads every extension again (/reload), from `extensions` instead of the
	 * start's paths when given (i dev's new build). A catalogue selection is
	 * bound afresh against the new generation; on any failure the old one
	 * stays and nothing of the new one runs.
	 */
	async reloadExtensions(request: {extensions?: readonly string[]} = {}): Promise<ExtensionReload> {
		const {extensions, model} = this.#parts;
		const loaded = await extensions.load(request.extensions);
		if (!loaded.ok) return loaded;
		const {next} = loaded;
		let bound: Bound;
		try {
			bound = await model.bind(next);
		} catch (error) {
			return {ok: false, problems: [...next.warnings, errorMessage(error)]};
		}

		// The new generation is taken: the old one's children go with it (its handles are gone, its actions refuse as stale).
		await this.children.cleanUp('the extensions were reloaded', task => task.owner !== CORE_OWNER);
		const found = await extensions.take(next, this.#session);
		model.take(bound, next);
		this.#tools = [...this.#parts.coreTools, ...next.tools];
		return {ok: true, warnings: [...next.warnings, ...bound.catalogue.warnings, ...found], loaded: next.files.size};
	}

	/**
	 * Reads the AGENTS.md files again (/reload, and /clear for the new
	 * session) into the session's saved system prompt and the next session's.
	 */
	async reloadInstructions(): Promise<InstructionsReload> {
		const result = await this.#parts.prompt.reload(this.#session);
		this.delivery.setSystemPrompt(result.systemPrompt);
		return result;
	}

	/** Lends the extensions' `api.runtime` actions a service the head has (a dialog); kept across /reload. */
	provideRuntime(services: RuntimeServices): void {
		this.#parts.extensions.provide(services);
	}

	/** What a child inherits, read when it starts: the binding, prompt, hooks and tools as they are now. */
	childParent(): ChildParent {
		return {
			caller: this.caller,
			// The MCP servers' tools ready when the child starts join the parent's (a child's own list does not change while it runs).
			tools: [...this.#tools, ...this.mcp.tools()],
			session: this.#session,
			hooks: this.hooks,
			extensionEvents: this.extensionEvents,
			beforeAgentStart: this.beforeAgentStart,
			workspace: this.workspace,
			systemPrompt: this.systemPrompt,
			budget: this.budget,
			maxTokens: this.maxTokens,
			emit: this.emit,
			gate: label => this.#childGate(label),
		};
	}

	/** Ends the children, the extensions, the workers and the MCP servers, and releases the session; a second call waits for the first. */
	async close(): Promise<void> {
		this.#closed ??= (async () => {
			// The parent ends: its children end first, so their sessions are saved and closed before the workers go.
			await this.children.close('the parent agent ended');
			await this.#parts.extensions.close(this.#session.id);
			await Promise.all([this.#session.close(), this.#parts.release(), this.mcp.close()]);
		})();
		return this.#closed;
	}

	/** A child's questions go to the parent's screen, saying whose they are; with no one to ask they are denied. */
	#childGate(label: string): ApprovalGate {
		const {askPerson} = this.#parts.approval;
		const labelled: AskPerson = async (request, signal) => askPerson({...request, ask: {...request.ask, title: `${label}: ${request.ask.title}`}}, signal);
		// A child's calls meet the same rules as the parent's.
		return createApprovalGate({...this.#parts.approval, askPerson: labelled});
	}

	#turnContext(signal: AbortSignal, emit: EmitEvent): TurnContext {
		return {
			caller: this.caller,
			tools: [...this.#tools],
			moreTools: () => this.mcp.tools(),
			session: this.#session,
			gate: this.gate,
			permissionMode: this.#parts.approval.mode,
			hooks: this.hooks,
			emit,
			workspace: this.workspace,
			systemPrompt: this.systemPrompt,
			budget: this.budget,
			maxTokens: this.maxTokens,
			maxSteps: this.maxSteps,
			signal,
			extensionEvents: this.extensionEvents,
			beforeAgentStart: this.beforeAgentStart,
			delivery: this.delivery,
		};
	}
}
