import type {LoadedExtension} from '../core/extensions/load-extensions.js';

/** Why a listed extension did not load: project code in an untrusted workspace, turned off, failed to load (with the error), or another of its name loaded first. */
export type NotLoadedWhy = 'untrusted' | 'disabled' | 'failed' | 'shadowed';

/** What `i extensions` prints (`--json`: this object on one line). */
export interface Listing {
	workspace: string;
	loaded: LoadedEntry[];
	notLoaded: Array<{path: string; from: string; why: NotLoadedWhy; reason: string}>;
	/** What else the start said: a folder it could not list, a provider id another extension had first, a workspace an extension trusted. */
	notes: string[];
}

export interface LoadedEntry {
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
}

/** One loaded extension as the listing shows it. */
export function loadedEntry(extension: LoadedExtension): LoadedEntry {
	return {
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
	};
}

/** How the text form opens each reason a listed extension did not load. */
const whyWords: Record<NotLoadedWhy, string> = {
	untrusted: 'refused, untrusted workspace',
	disabled: 'refused, disabled',
	failed: 'failed to load',
	shadowed: 'not loaded, shadowed',
};

/** The listing as text: each loaded extension and what it registered, then what was not loaded and why, then the notes. */
export function plainText(listing: Listing): string {
	const lines: string[] = [];
	if (listing.loaded.length === 0) lines.push(`no extensions loaded for ${listing.workspace}`);
	for (const extension of listing.loaded) {
		lines.push(`${extension.name}  ${extension.path}`);
		lines.push(`  loaded from ${extension.from}; priority ${extension.priority}${extension.platforms ? `; platforms ${extension.platforms.join(', ')}` : ''}`);
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
	for (const item of listing.notLoaded) lines.push(`  ${item.path} (from ${item.from})`, `    ${whyWords[item.why]}: ${item.reason}`);
	if (listing.notes.length > 0) lines.push('', 'notes:');
	for (const note of listing.notes) lines.push(`  ${note}`);
	return `${lines.join('\n')}\n`;
}
