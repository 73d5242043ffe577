import type {AnyFlags} from 'meow';
import {parseCommandLine} from '../command-line/parse-command-line.js';
import {checkedDirs} from '../core/config/checked-dirs.js';
import {errorMessage, exitCodes} from '../core/errors.js';
import {nativeToolNames} from '../core/tools/native-tool-names.js';
import {resolveWorkspace} from '../core/session/start-plugins.js';
import {keepStdoutForContent, writeOut} from '../shared/output.js';
import {containExtensions} from '../shared/contain-extensions.js';
import {longFlagNames} from '../command-line/read-tokens.js';
import {mainFlags} from '../main-flags.js';
import {ExtensionFlags} from '../core/extensions/cli-flags.js';

const listFlags = {
	cwd: {type: 'string', shortFlag: 'C'},
	json: {type: 'boolean', default: false},
	extension: {type: 'string', isMultiple: true, default: []},
	extensionsDir: {type: 'string', isMultiple: true, default: []},
	trustProject: {type: 'boolean', default: false},
} satisfies AnyFlags;

interface Listing {
	workspace: string;
	loaded: Array<{
		name: string;
		path: string;
		from: string;
		origin: string;
		priority: number;
		platforms: string[] | null;
		tools: string[];
		flags: Array<{name: string; type: string; default: boolean | string | null; description: string}>;
		commands: Array<{name: string; description: string}>;
		markdownTransformers: number;
		/** Model providers: what a config names in `protocol`; never a header or a key. */
		providers: Array<{id: string; apiStyle: string; streaming: boolean; baseUrl: string | null; catalogueModels: number | null; apiKeyEnv: string | null}>;
		/** The customTypes its message and entry renderers draw (registerMessageRenderer, registerEntryRenderer). */
		renderers: {message: string[]; entry: string[]};
		/** registerResourcesDiscover handlers. */
		resourcesDiscover: number;
		/** registerBeforeAgentStart transforms. */
		beforeAgentStart: number;
		events: string[];
	}>;
	notLoaded: Array<{path: string; from: string; reason: string}>;
}

/**
 * `i extensions [-C DIR] [--json] [--extension PATH]… [--extensions-dir DIR]… [--trust-project]`:
 * loads the extensions a run in this workspace would load (their `register`
 * runs; nothing else does) and lists each with where it came from and what
 * it registered, then what was not loaded and why. Project code is loaded
 * only in a trusted workspace, as for a run; it never asks.
 */
export async function runExtensionsList(args: string[]): Promise<number> {
	let listing: Listing;
	let json: boolean;
	// A register that prints must not corrupt the listing (--json above all).
	keepStdoutForContent();
	// One that throws from a timer or never yields must not end or hold the listing: its faults go to stderr.
	containExtensions();
	try {
		const {flags} = parseCommandLine(args, {flags: listFlags});
		json = flags.json;
		listing = await list(flags);
	} catch (error) {
		process.stderr.write(`i: extensions: ${errorMessage(error)}\n`);
		return exitCodes.usage;
	}

	writeOut(json ? `${JSON.stringify(listing)}\n` : plainText(listing));
	return exitCodes.ok;
}

async function list(flags: {cwd?: string | undefined; extension: string[]; extensionsDir: string[]; trustProject: boolean}): Promise<Listing> {
	const dirs = checkedDirs();
	const workspace = resolveWorkspace(flags.cwd);
	const [{findExtensionSources}, {loadExtensions, describeLoadReport}, {readTrust}, {findWorkspaceId, workspaceStateDir}] = await Promise.all([
		import('../core/extensions/sources.js'),
		import('../core/extensions/load-extensions.js'),
		import('../core/extensions/project-trust.js'),
		import('../core/config/workspace-registry.js'),
	]);
	const sources = await findExtensionSources({extensions: flags.extension, extensionDirs: flags.extensionsDir, workspace, configDir: dirs.config_dir});
	const id = await findWorkspaceId(workspace, dirs);
	const trusted = flags.trustProject || (id !== undefined && (await readTrust(workspaceStateDir(dirs, id)))?.trusted === true);
	const {extensions, reports} = await loadExtensions({
		candidates: sources.candidates,
		trusted,
		takenToolNames: new Map(nativeToolNames.map(name => [name, 'a native tool'])),
		// The names a run refuses are refused here too: what this lists is what a run loads.
		flags: new ExtensionFlags({flags: [], input: [], takesInput: true, reserved: longFlagNames(mainFlags)}),
	});
	return {
		workspace,
		loaded: extensions.map(extension => ({
			name: extension.name,
			path: extension.file,
			from: extension.candidate.listedIn,
			origin: extension.candidate.origin,
			priority: extension.priority,
			platforms: extension.platforms ?? null,
			tools: extension.tools.map(tool => tool.name),
			flags: [...extension.flags].map(([name, spec]) => ({name, type: spec.type, default: spec.default ?? null, description: spec.description})),
			commands: [...extension.commands].map(([name, command]) => ({name: `/${name}`, description: command.description})),
			markdownTransformers: extension.markdownTransformers.length,
			providers: extension.providers.map(provider => {
				const entry = extension.catalogue.find(declared => declared.id === provider.id);
				return {
					id: provider.id,
					apiStyle: provider.apiStyle,
					streaming: provider.streaming,
					baseUrl: provider.baseUrl ?? null,
					catalogueModels: entry ? entry.models.length : null,
					apiKeyEnv: entry?.apiKeyEnv ?? null,
				};
			}),
			renderers: {message: [...extension.renderers.message.keys()], entry: [...extension.renderers.entry.keys()]},
			resourcesDiscover: extension.discoverers.length,
			beforeAgentStart: extension.beforeAgentStart.length,
			events: [...new Set(extension.handlers.map(handler => handler.tag))],
		})),
		notLoaded: [
			...sources.problems.map(problem => ({path: '', from: '', reason: problem})),
			...reports.map(report => ({path: report.path, from: report.listedIn, reason: describeLoadReport(report)})),
			...extensions.flatMap(extension => extension.notices.map(notice => ({path: extension.candidate.path, from: extension.candidate.listedIn, reason: notice}))),
		],
	};
}

function plainText(listing: Listing): string {
	const lines: string[] = [];
	if (listing.loaded.length === 0) lines.push(`no extensions loaded for ${listing.workspace}`);
	for (const extension of listing.loaded) {
		lines.push(`${extension.name}  ${extension.path}`);
		lines.push(`  from ${extension.from}; priority ${extension.priority}${extension.platforms ? `; platforms ${extension.platforms.join(', ')}` : ''}`);
		lines.push(`  tools: ${extension.tools.length > 0 ? extension.tools.join(', ') : 'none'}`);
		for (const flag of extension.flags) lines.push(`  flag --${flag.name} (${flag.type}${flag.default === null ? '' : `, default ${String(flag.default)}`}): ${flag.description}`);
		for (const command of extension.commands) lines.push(`  command ${command.name}: ${command.description}`);
		for (const provider of extension.providers) {
			const catalogue =
				provider.catalogueModels === null
					? ''
					: `, ${provider.catalogueModels} catalogue model${provider.catalogueModels === 1 ? '' : 's'}${provider.apiKeyEnv === null ? '' : `, key in ${provider.apiKeyEnv}`}`;
			lines.push(`  provider ${provider.id} (${provider.apiStyle}, ${provider.streaming ? 'streaming' : 'one-shot'}${provider.baseUrl === null ? '' : `, ${provider.baseUrl}`}${catalogue})`);
		}

		if (extension.renderers.message.length > 0) lines.push(`  message renderers: ${extension.renderers.message.join(', ')}`);
		if (extension.renderers.entry.length > 0) lines.push(`  entry renderers: ${extension.renderers.entry.join(', ')}`);
		if (extension.markdownTransformers > 0) lines.push(`  markdown transformers: ${extension.markdownTransformers}`);
		if (extension.resourcesDiscover > 0) lines.push(`  resources discover handlers: ${extension.resourcesDiscover}`);
		if (extension.beforeAgentStart > 0) lines.push(`  system prompt transforms (BeforeAgentStart): ${extension.beforeAgentStart}`);
		lines.push(`  events: ${extension.events.length > 0 ? extension.events.join(', ') : 'none'}`);
	}

	if (listing.notLoaded.length > 0) lines.push('', 'not loaded:');
	for (const item of listing.notLoaded) lines.push(item.path ? `  ${item.path} (from ${item.from}): ${item.reason}` : `  ${item.reason}`);
	return `${lines.join('\n')}\n`;
}
