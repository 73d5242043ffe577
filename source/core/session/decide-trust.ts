import type {PlatformDirs} from '../config/dirs.js';
import type {EventBus} from '../extensions/event-bus.js';
import type {TrustDecision} from '../extensions/project-trust.js';
import type {ProjectMcpServer} from '../mcp/mcp-config.js';

/** What the chat screen shows when it asks (ExtensionOptions.askTrust). */
export interface TrustQuestion {
	workspace: string;
	/** The project's extensions that would run, as listed (files and package folders). */
	extensions: string[];
	/** The MCP servers the project's files configure, which would start: `name (file)`. */
	mcpServers: string[];
	/** The permission allow rules of the project's settings files, which would count: `rule (file)`, the file relative to the workspace. */
	allowRules: string[];
	/** The project's `"sandbox"` settings, which would loosen the sandbox: `allowWrite PATH (file)` and the like. */
	sandboxSettings: string[];
	/** The project's models.json entries that would point a provider elsewhere: `provider ID: baseUrl URL (file)`. */
	modelEndpoints: string[];
	/** The file the answer is kept in: deleting it asks again. */
	rememberedIn: string;
}

/** Whether the workspace's own code loads this start, and what the warnings say about it. */
export interface TrustOutcome {
	trusted: boolean;
	/** A person's "no", remembered in this file (delete it to be asked again). */
	refusedIn?: string | undefined;
	/** The extension whose ProjectTrust answer decided, when one did. */
	byExtension?: {name: string; reason: string | null} | undefined;
}

export interface TrustContext {
	workspace: string;
	dirs: PlatformDirs;
	/** The handlers of the extensions that need no trust: their ProjectTrust gate is asked first. */
	events: EventBus | null;
}

/** What of the project needs trust (each may be empty): its extensions' paths, its MCP servers, and its allow rules as the question lists them. */
export interface ProjectContent {
	extensions?: string[] | undefined;
	mcpServers?: readonly ProjectMcpServer[] | undefined;
	allowRules?: string[] | undefined;
	sandboxSettings?: string[] | undefined;
	modelEndpoints?: string[] | undefined;
}

/** Only a person can decide: ask with `ask`, which remembers the answer. */
export interface Undecided {
	undecided: true;
	ask(askTrust: (question: TrustQuestion) => Promise<boolean>): Promise<TrustOutcome>;
}

/**
 * Decides without a person where it can (spec/extensions.md §8, the
 * ProjectTrust gate of §5): first the extensions that need no trust are
 * asked, and a refusal of any of them wins over everything
 * (`--trust-project`, an earlier yes): they are the person's own policy. Then
 * `--trust-project` trusts for this run, an earlier answer stands (an
 * extension's yes never overrides a person's remembered no), and an
 * extension's yes trusts a workspace nobody decided for yet — for this run
 * only, never remembered, so removing that extension leaves no trust behind.
 * What is left is the person's: `Undecided` when `canAsk`, else skipped
 * (headless).
 */
export async function decideTrust(options: {trustProject?: boolean | undefined; canAsk: boolean}, context: TrustContext, project: ProjectContent = {}): Promise<TrustOutcome | Undecided> {
	const {extensions = [], mcpServers = [], allowRules = [], sandboxSettings = [], modelEndpoints = []} = project;
	// What a ProjectTrust handler sees of the project's code: the extensions, then the files that configure its MCP servers.
	// The allow rules, sandbox settings and models.json endpoints are not code, so only the person's question lists them.
	const projectCode = [...extensions, ...new Set(mcpServers.map(server => server.file))];
	const asksExtensions = context.events?.has('ProjectTrust') === true;
	if (options.trustProject && !asksExtensions) return {trusted: true};
	const [{findWorkspaceId, workspaceId, workspaceStateDir}, {readTrust, writeTrust, trustFile}] = await Promise.all([import('../config/workspace-registry.js'), import('../extensions/project-trust.js')]);
	// Only a head that asks records an answer: without one (-p, i extensions) a workspace never seen has none to read, and is not registered for it.
	const id = options.canAsk ? await workspaceId(context.workspace, context.dirs) : await findWorkspaceId(context.workspace, context.dirs);
	const stateDir = id === undefined ? undefined : workspaceStateDir(context.dirs, id);
	const remembered: TrustDecision | undefined = stateDir === undefined ? undefined : await readTrust(stateDir);
	const gate = asksExtensions ? await askExtensions(context, projectCode, remembered, options.trustProject === true) : ({decided: false} as const);
	if (gate.decided && !gate.allow) return {trusted: false, byExtension: {name: gate.by, reason: gate.reason}};
	if (options.trustProject) return {trusted: true};
	if (remembered) return remembered.trusted ? {trusted: true} : {trusted: false, refusedIn: trustFile(stateDir!)};
	if (gate.decided) return {trusted: true, byExtension: {name: gate.by, reason: gate.reason}};
	if (!options.canAsk || stateDir === undefined) return {trusted: false};
	return {
		undecided: true,
		async ask(askTrust) {
			const trusted = await askTrust({
				workspace: context.workspace,
				extensions,
				mcpServers: mcpServers.map(server => `${server.name} (${server.file})`),
				allowRules,
				sandboxSettings,
				modelEndpoints,
				rememberedIn: trustFile(stateDir),
			});
			await writeTrust(stateDir, trusted, 'user');
			return trusted ? {trusted: true} : {trusted: false, refusedIn: trustFile(stateDir)};
		},
	};
}

/** The ProjectTrust payload (docs/extensions/authoring.md): what would run, and what was decided before. */
async function askExtensions(context: TrustContext, extensions: string[], remembered: TrustDecision | undefined, trustProject: boolean) {
	const {readTrustAnswer} = await import('../extensions/event-answers.js');
	return context.events!.gate('ProjectTrust', {workspace: context.workspace, extensions, remembered: remembered?.trusted ?? null, trustProject}, readTrustAnswer);
}
