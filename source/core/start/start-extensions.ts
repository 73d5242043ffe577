import type {PlatformDirs} from '../config/dirs.js';
import type {Tool} from '../tools/types.js';
import type {EventBus} from '../extensions/event-bus.js';
import type {ExtensionCommand, MarkdownTransformer} from '../extensions/api.js';
import {ExtensionFlags} from '../extensions/cli-flags.js';

/** The extension part of a start: `i`'s flags, or the core API's options. */
export interface ExtensionOptions {
	/** `--extension PATH`, repeatable. */
	extensions?: readonly string[] | undefined;
	/** `--extensions-dir DIR`, repeatable. */
	extensionDirs?: readonly string[] | undefined;
	/** `--no-extensions`: none load, from anywhere. */
	noExtensions?: boolean | undefined;
	/** `i dev-local`: only the `extensions` paths load; no folder, environment, settings or global extensions (sources.ts). */
	localOnly?: boolean | undefined;
	/** `--trust-project`: the workspace's own extensions load this once without an earlier trust. */
	trustProject?: boolean | undefined;
	/**
	 * How a head with a person asks whether the workspace's code may run
	 * (the chat screen); its answer is remembered. Without it (headless) an
	 * undecided workspace's code is skipped, and the head says so.
	 */
	askTrust?: ((question: {workspace: string; extensions: string[]}) => Promise<boolean>) | undefined;
	/**
	 * The command line's flags no built-in flag is (`i`'s parser): the
	 * extensions' own flags claim theirs as they register, and one left
	 * unclaimed once all have loaded is a usage error. Without it (the core
	 * API) an extension's flags have their defaults.
	 */
	commandLine?: ExtensionFlags | undefined;
}

export interface StartedExtensions {
	/** Extension tools as core tools, in priority order. */
	tools: Tool[];
	/** For the head to show: what failed to load or was skipped, each naming the path and how to fix it. */
	warnings: string[];
	/** Module files and folders of the loaded extensions, by extension name: names an unhandled rejection's origin. */
	files: ReadonlyMap<string, string>;
	/** The extensions' event handlers; null when none registered one. */
	events: EventBus | null;
	/** What the chat screen adds (line mode and -p ignore these): slash commands by name, and Markdown transformers in priority order. */
	ui: ExtensionUi;
}

export interface ExtensionUi {
	commands: ReadonlyMap<string, ExtensionCommand & {extension: string}>;
	markdownTransformers: ReadonlyArray<{extension: string; transform: MarkdownTransformer}>;
}

const noUi: ExtensionUi = {commands: new Map(), markdownTransformers: []};
const none: StartedExtensions = {tools: [], warnings: [], files: new Map(), events: null, ui: noUi};

/**
 * Finds and loads the extensions for a start. Without any listed, a start
 * pays for the sources module, two settings reads and one folder listing.
 * Project code (EXTENSIONS.md "Trust") loads in a workspace trusted earlier,
 * with --trust-project, or after the person said yes.
 */
export async function startExtensions(options: ExtensionOptions, context: StartContext): Promise<StartedExtensions> {
	const flags = options.commandLine ?? new ExtensionFlags();
	const started = await loadForStart(options, context, flags);
	// Every extension has had its chance to claim a flag of the command line.
	try {
		flags.finish();
	} catch (error) {
		// Why an extension did not load is often why its flag is unknown: said before the error.
		for (const message of started.warnings) context.report(message);
		throw error;
	}

	return started;
}

type StartContext = {workspace: string; dirs: PlatformDirs; takenToolNames: ReadonlyMap<string, string>; report: (message: string) => void};

async function loadForStart(options: ExtensionOptions, context: StartContext, flags: ExtensionFlags): Promise<StartedExtensions> {
	if (options.noExtensions) return none;
	const {findExtensionSources} = await import('../extensions/sources.js');
	const sources = await findExtensionSources({
		extensions: options.extensions ?? [],
		extensionDirs: options.extensionDirs ?? [],
		workspace: context.workspace,
		configDir: context.dirs.config_dir,
		localOnly: options.localOnly === true,
	});
	const warnings = [...sources.problems];
	if (sources.candidates.length === 0) return {...none, warnings};
	const projectCode = sources.candidates.filter(candidate => candidate.project);
	const trust =
		projectCode.length === 0
			? {trusted: false, refusedIn: undefined}
			: await decideTrust(
					options,
					context,
					projectCode.map(candidate => candidate.path),
				);
	const [{loadExtensions, currentPlatform, describeLoadReport}, {createExtensionTool}] = await Promise.all([import('../extensions/load-extensions.js'), import('../extensions/extension-tool.js')]);
	const {extensions, reports} = await loadExtensions({candidates: sources.candidates, trusted: trust.trusted, takenToolNames: context.takenToolNames, flags});
	const skipped = reports.filter(report => report.kind === 'skipped-untrusted');
	// The skipped ones are said once, together, below.
	for (const report of reports) if (report.kind !== 'skipped-untrusted') warnings.push(`extension ${report.path} (from ${report.listedIn}) was not loaded: ${describeLoadReport(report)}`);

	if (skipped.length > 0) {
		const them = skipped.length === 1 ? 'it' : 'them';
		const fix = trust.refusedIn === undefined ? `pass --trust-project to load ${them}` : `it was not trusted when asked; pass --trust-project to load ${them}, or delete ${trust.refusedIn} to be asked again`;
		warnings.push(
			`the workspace ${context.workspace} is not trusted, so its own ${skipped.length === 1 ? 'extension was' : `${skipped.length} extensions were`} skipped: ${skipped.map(report => report.path).join(', ')}; ${fix}`,
		);
	}

	const tools = extensions.flatMap(extension => extension.tools.map(tool => createExtensionTool(tool, {name: extension.name, file: extension.file})));
	const handlers = extensions.flatMap(extension => extension.handlers.map(({tag, handler}) => ({extension: extension.name, tag, handler, platforms: extension.platforms})));
	const events = handlers.length === 0 ? null : new (await import('../extensions/event-bus.js')).EventBus({handlers, report: context.report, platform: currentPlatform()});
	const ui: ExtensionUi = {
		commands: new Map(extensions.flatMap(extension => [...extension.commands].map(([name, command]) => [name, {...command, extension: extension.name}] as const))),
		markdownTransformers: extensions.flatMap(extension => extension.markdownTransformers.map(transform => ({extension: extension.name, transform}))),
	};
	return {tools, warnings, files: new Map(extensions.map(extension => [extension.name, extension.candidate.path])), events, ui};
}

/** Whether project code may load, and where a remembered "no" is kept (for the message that says how to undo it). */
async function decideTrust(options: ExtensionOptions, context: {workspace: string; dirs: PlatformDirs}, extensions: string[]): Promise<{trusted: boolean; refusedIn: string | undefined}> {
	if (options.trustProject) return {trusted: true, refusedIn: undefined};
	const [{workspaceId, workspaceStateDir}, {readTrust, writeTrust, trustFile}] = await Promise.all([import('../config/workspace-registry.js'), import('../extensions/project-trust.js')]);
	const stateDir = workspaceStateDir(context.dirs, await workspaceId(context.workspace, context.dirs));
	const remembered = await readTrust(stateDir);
	const refused = {trusted: false, refusedIn: trustFile(stateDir)};
	if (remembered) return remembered.trusted ? {trusted: true, refusedIn: undefined} : refused;
	if (!options.askTrust) return {trusted: false, refusedIn: undefined};
	const trusted = await options.askTrust({workspace: context.workspace, extensions});
	await writeTrust(stateDir, trusted, 'user');
	return trusted ? {trusted: true, refusedIn: undefined} : refused;
}
