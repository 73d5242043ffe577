import type {EmitEvent} from '../events.js';
import type {EventBus} from '../extensions/event-bus.js';
import type {RuntimeServices} from '../extensions/runtime-link.js';
import {createNativeTools} from '../tools/native-tools.js';
import type {Tool} from '../tools/types.js';
import {createHookChain, emptyHookChain} from '../lifecycle/hook-chain.js';
import {toolApprovalPolicy} from '../lifecycle/turn-lifecycle.js';
import type {LoadedPlugins, WorkerPool} from '../pool/types.js';
import type {AskPerson} from '../agent/approval-gate.js';
import {PermissionMode, type PermissionModeName} from '../agent/permission-mode.js';
import {MessageDelivery} from '../agent/message-delivery.js';
import {ChildAgents} from '../agent/child-agents.js';
import {childAgentService} from '../agent/child-agent-service.js';
import {prepareMcp} from '../mcp/start-mcp.js';
import {McpHandle} from '../mcp/mcp-handle.js';
import {openStartSession} from './start-session.js';
import type {Session} from './session-store.js';
import {startPlugins, unlessAborted, type StartedPlugins, type StartOptions} from './start-plugins.js';
import {startExtensions, type ExtensionOptions, type ExtensionStartup, type StartContext} from './start-extensions.js';
import {loadResources, type ResourceOptions} from './load-resources.js';
import {executionContextService, thinkingSetting} from './execution-context.js';
import {readInstructions} from './session-instructions.js';
import {ModelBinding} from './model-binding.js';
import {ExtensionGenerations} from './extension-generations.js';
import {SessionPrompt} from './session-prompt.js';
import {startHooks} from './start-hooks.js';
import {permissionsOfStart} from './run-permissions.js';
import {unusedFolderFlags} from './module-folders.js';
import {Agent} from './agent.js';
import {workspaceFileHistory} from '../rewind/workspace-file-history.js';
import {removeWorkspaceDebris} from './workspace-writes.js';
import {ShellSandbox} from '../sandbox/shell-sandbox.js';
import {sandboxOfStart} from '../sandbox/sandbox-config.js';

/** What set-up needs from a head besides the start's own options: `i`'s flags, or the core API's options. */
export interface SetupOptions extends StartOptions, ExtensionOptions, ResourceOptions {
	/** A session file to resume or create (`--session`). */
	session?: string | undefined;
	/** A named session of the workspace (`--session-name`). */
	sessionName?: string | undefined;
	/** `--continue`: the workspace's latest session (start-session.ts). */
	continueLatest?: boolean | undefined;
	/** The first message when the head knows it before set-up (`-p TEXT`): a new session takes its name at once. */
	firstMessage?: string | undefined;
	/** The chat screen: a new session is named after its first message once it is saved (start-session.ts). */
	nameLater?: boolean | undefined;
	/** Model requests one turn may make (`--max-steps`); the config's max_steps by default. */
	maxSteps?: number | undefined;
	/** Every tool call runs without asking (`--yolo`): the same as permissionMode bypassPermissions. */
	yolo?: boolean | undefined;
	/** `--permission-mode`: the mode the run starts in (docs/approvals.md, "Permission modes"); over `yolo`. */
	permissionMode?: PermissionModeName | undefined;
	/** `--api-key`: the key for the provider the config selects, this run only (never stored, never shown). */
	apiKey?: string | undefined;
	/** False (`--no-agents-md`): no AGENTS.md is read into the system prompt (project-instructions.ts). */
	agentsMd?: boolean | undefined;
	/** False (`--no-sandbox`): the model's shell commands run outside the sandbox (docs/sandbox.md). */
	sandbox?: boolean | undefined;
	/** A permission rule that cannot be used: `fail` (the default) stops the start with a UsageError; `notice` says so and lets no allow rule count (the chat screen). */
	permissionProblems?: 'fail' | 'notice' | undefined;
}

/** Print and line mode have no terminal to ask on: an ask becomes a denial the model and the person both see. */
export const denyWithoutTerminal: AskPerson = async () => ({
	decision: 'deny',
	by: 'no_terminal',
	reason: 'approval is needed and there is no terminal to ask on; rerun with --yolo to allow tools without asking, or allow this one with a permission rule (docs/approvals.md, "Permission rules")',
});

/**
 * Assembles the agent: config, plugins, tools, extensions and session, then
 * the start-phase hooks. `started` is the config and plugins part, when the
 * head began it earlier (startPlugins), and `extensions` the extensions'
 * start, when the head found them and loaded the first of them itself (the
 * chat screen, for BeforeTuiStart). A problem with flags or files is a
 * UsageError (exit 2); a start-phase hook that fails vetoes the start
 * (exit 3). Anything set up before a failure is torn down again.
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
	const warn = (message: string) => headEmit({type: 'warning', message});
	for (const message of warnings) warn(message);
	let session: Session | undefined;
	try {
		const hooks = pool ? createHookChain(plugins.hooks, pool) : emptyHookChain;
		const model = new ModelBinding(loaded, options, {dirs, workspace, plugins, pool, warn});
		// Set once assembled: a child started before that (a SessionStart handler's) is refused.
		let agent: Agent | undefined;
		const children = new ChildAgents(() => {
			if (!agent) throw new Error('a child agent was started before the agent was set up');
			return agent.childParent();
		});
		const [history, sandbox] = [workspaceFileHistory(workspace, dirs, warn), new ShellSandbox({workspace, configDir: dirs.config_dir}, warn)];
		const coreTools = [...createNativeTools({secrets: model.secrets, children, history, sandbox}), ...(pool ? await externalTools(plugins, pool) : [])];
		// The extensions load while the session file is read; a start without them pays nearly nothing for the look.
		const opening = openStartSession(options, workspace, dirs, warn);
		const extensionContext: StartContext = {
			workspace,
			dirs,
			takenToolNames: new Map(coreTools.map(tool => [tool.name, tool.external ? 'a worker tool' : 'a native tool'])),
			report: warn,
		};
		const starting = extensions ? extensions.start(extensionContext) : startExtensions(options, extensionContext);
		// An extension provider's id is known once the extensions loaded; a config naming none of theirs fails like an unclaimed flag.
		const binding = starting.then(async started => model.bind(started));
		const [loadedExtensions, opened, first] = await Promise.all([starting, opening, binding, removeWorkspaceDebris(workspace, dirs)]).catch(async (error: unknown) => {
			// One of them failed: a session that did open is released again (its lock above all).
			await opening.then(
				async opened => opened.session.close(),
				() => {},
			);
			throw error;
		});
		session = opened.session;
		if (opened.notice) warn(opened.notice);
		const permissions = await permissionsOfStart(options, {workspace, dirs, warn}, loadedExtensions, coreTools);
		sandbox.configure(await sandboxOfStart(options, {workspace, dirs, warn}, loadedExtensions));
		model.take(first, loadedExtensions);
		const events = loadedExtensions.events;
		const mcp = await startMcp(options, {
			workspace,
			dirs,
			events,
			warn,
			takenToolNames: new Map([...extensionContext.takenToolNames, ...loadedExtensions.tools.map(tool => [tool.name, 'an extension tool'] as const)]),
		});
		let delivery: MessageDelivery | undefined;
		const generations = await ExtensionGenerations.first({options, start: extensionContext, plugins, pool, toHead: headEmit, onEmit: emit => delivery?.emitTo(emit)}, loadedExtensions);
		// With extension handlers, the head's events also reach the observers (MessageUpdate, ToolExecution*).
		const emit = generations.emit;
		for (const message of [...loadedExtensions.warnings, ...first.catalogue.warnings]) emit({type: 'warning', message});
		const openedSession = session;
		const startTools = [...coreTools, ...loadedExtensions.tools];
		// Until the agent exists (a ResourcesDiscover handler's question), the start's own caller, tools and session.
		const live = () => agent ?? {caller: model.caller, tools: startTools, session: openedSession};
		generations.provide({getExecutionContext: executionContextService(live, {workspace, thinking: thinkingSetting(loaded.config.extra_body)})});
		const resources = await loadResources('startup', options, {
			workspace,
			configDir: dirs.config_dir,
			settings: loadedExtensions.settings,
			discoverers: loadedExtensions.discoverers,
			events,
			report: message => emit({type: 'warning', message}),
		});
		for (const message of [...resources.warnings, ...unusedFolderFlags(options, plugins)]) emit({type: 'warning', message});
		pool?.setResources(resources.folders);
		generations.setResourceFolders(resources.folders, resources.themes);
		emit({type: 'session', id: session.id, path: session.path, workspace, resumed_messages: session.messages.length, dropped: session.dropped});
		// The start hooks wait for the worker host's first answers: time in which the transport can load.
		if (hooks.has('system_prompt') || hooks.has('session_load')) model.caller.warmUp?.();
		// The AGENTS.md files are read while the start hooks run; a file that cannot be used is a notice, never a failed start.
		const place = {enabled: options.agentsMd !== false, workspace, configDir: dirs.config_dir};
		const reading = readInstructions(place);
		const basePrompt = await startHooks(hooks, session, workspace, signal);
		const read = await reading;
		for (const message of read.notices) emit({type: 'warning', message});
		const prompt = new SessionPrompt(basePrompt, read, session, place);
		const resumed = session.messages.length > 0;
		// Before SessionStart, so its handlers can use them. appendEntry and sendMessage (spec/extensions.md §3): the core queues and commits; a head that can start a run lends its RunStarter.
		delivery = new MessageDelivery({session, emit, systemPrompt: prompt.systemPrompt});
		await delivery.resume();
		generations.provide(deliveryServices(delivery));
		agent = new Agent({
			workspace,
			sessionFolder: opened.folder,
			session,
			model,
			extensions: generations,
			coreTools,
			hooks,
			mcp,
			prompt,
			delivery,
			children,
			approval: {mode: new PermissionMode(options.permissionMode ?? (options.yolo === true ? 'bypassPermissions' : 'default')), askPerson, policy: toolApprovalPolicy(hooks), rules: permissions.check},
			permissions,
			history,
			limits: {budget: loaded.config.budget ?? null, maxTokens: loaded.config.max_tokens ?? null, maxSteps: options.maxSteps ?? loaded.config.max_steps},
			// The session it started with may have been switched: closing one twice is a no-op.
			release: async () => {
				await Promise.all([openedSession.close(), pool?.close(), sandbox.close()]);
			},
		});
		generations.provide({childAgent: childAgentService(children)});
		await events?.advisory('SessionStart', {reason: resumed ? 'resume' : 'startup', sessionId: session.id, path: session.path, cwd: workspace});
		return agent;
	} catch (error) {
		await Promise.all([session?.close(), pool?.close()]);
		throw error;
	}
}

async function externalTools(plugins: LoadedPlugins, pool: WorkerPool): Promise<Tool[]> {
	if (plugins.tools.length === 0) return [];
	const {createExternalTool} = await import('../tools/external-tool.js');
	return plugins.tools.map(tool => createExternalTool(tool, pool));
}

/**
 * The MCP servers, started in the background beside the rest of the set-up:
 * the first frame never waits for them, and a one-shot's first request
 * waits only up to a bound (McpHandle.waitForFirstRequest, docs/mcp.md).
 */
async function startMcp(
	options: SetupOptions,
	start: {workspace: string; dirs: StartContext['dirs']; events: EventBus | null; warn: (message: string) => void; takenToolNames: ReadonlyMap<string, string>},
): Promise<McpHandle> {
	const mcp = new McpHandle(
		prepareMcp({
			workspace: start.workspace,
			dirs: start.dirs,
			trustProject: options.trustProject,
			events: start.events,
			takenToolNames: start.takenToolNames,
			clientVersion: (await import('../../version.js')).version(),
			report: start.warn,
		}),
	);
	mcp.begin();
	return mcp;
}

/** appendEntry and sendMessage (spec/extensions.md §3); the checks' schemas load with the first delivery, so a run without one never builds them. */
function deliveryServices(delivery: MessageDelivery): Pick<RuntimeServices, 'appendEntry' | 'sendMessage'> {
	const checks = async () => import('../extensions/check-delivery.js');
	return {
		appendEntry: async (extension, request) => delivery.appendEntry(extension, (await checks()).checkAppendEntry(extension, request)),
		sendMessage: async (extension, request) => delivery.sendMessage(extension, (await checks()).checkSendMessage(extension, request)),
	};
}
