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
} from './api.js';
import {checkCommand, checkMarkdownTransformer, checkRenderer} from './check-command.js';
import {checkDeclaration, type CheckedDeclaration} from './check-declaration.js';
import {checkExtensionTool} from './check-tool.js';
import {checkOAuthProvider, type CheckedOAuthProvider} from './check-oauth.js';
import {checkProvider, type CheckedProvider} from './check-provider.js';
import type {ExtensionFlags, FlagSpec} from './cli-flags.js';
import {ABORT, type EventHandler} from './event-bus.js';
import {eventTags, isEventTag, type EventTag} from './event-tags.js';
import {dialogBinding, invocationOf, type RuntimeLink} from './runtime-link.js';

export interface Renderers {
	message: ReadonlyMap<string, MessageRenderer>;
	entry: ReadonlyMap<string, EntryRenderer>;
}

/** The key a renderer of a customType is owned under: message and entry renderers of one type are two slots. */
export function rendererKey(kind: 'message' | 'entry', customType: string): string {
	return `${kind}:${customType}`;
}

/** The names taken before this extension, each with who has it: tools, slash commands, renderers (by rendererKey) and provider ids. */
export interface StageOwners {
	toolOwners: ReadonlyMap<string, string>;
	commandOwners: ReadonlyMap<string, string>;
	rendererOwners: ReadonlyMap<string, string>;
	providerOwners: ReadonlyMap<string, string>;
}

/**
 * The api one extension's `register` gets. What it registers is kept here
 * until `register` settles; after that (success, failure or timeout) every
 * slot refuses, so a `register` that outlived its time cannot slip anything
 * in later.
 */
export class ExtensionStage {
	readonly api: ExtensionApi;
	readonly tools: ExtensionTool[] = [];
	readonly flags = new Map<string, FlagSpec>();
	readonly commands = new Map<string, ExtensionCommand>();
	readonly markdownTransformers: MarkdownTransformer[] = [];
	readonly renderers = {message: new Map<string, MessageRenderer>(), entry: new Map<string, EntryRenderer>()};
	readonly providers = new Map<string, CheckedProvider>();
	/** Provider ids it registered that another extension had first. */
	readonly shadowedProviders = new Set<string>();
	/** OAuth flows (registerOAuthProvider), by provider id; load-extensions.ts checks each id is a provider of this extension. */
	readonly oauth = new Map<string, CheckedOAuthProvider>();
	readonly notices: string[] = [];
	readonly handlers: Array<{tag: EventTag; handler: EventHandler}> = [];
	readonly discoverers: EventHandler[] = [];
	readonly beforeAgentStart: EventHandler[] = [];
	readonly declaration: CheckedDeclaration = {};
	readonly #name: string;
	readonly #owners: StageOwners;
	readonly #commandLine: ExtensionFlags;
	/** This run's values of the flags it registered, readable before its register returns. */
	readonly #values = new Map<string, boolean | string | undefined>();
	#open = true;

	constructor(name: string, owners: StageOwners, commandLine: ExtensionFlags, link: RuntimeLink) {
		this.#name = name;
		this.#owners = owners;
		this.#commandLine = commandLine;
		this.api = this.#makeApi(link);
	}

	/** `register` settled: every slot refuses from now on. */
	close(): void {
		this.#open = false;
	}

	#guard(slot: string): void {
		if (!this.#open) throw new Error(`extension ${this.#name}: ${slot} was called after register ended; register everything before register returns`);
	}

	/** Arrows, not methods: a slot reads the stage, and an extension may call one it took off the api. */
	#makeApi(link: RuntimeLink): ExtensionApi {
		const name = this.#name;
		const {toolOwners, commandOwners} = this.#owners;
		const commandLine = this.#commandLine;
		const values = this.#values;
		return Object.freeze({
			apiVersion: EXTENSION_API_VERSION,
			ABORT,
			declare: (value: Declaration) => {
				this.#guard('declare');
				Object.assign(this.declaration, checkDeclaration(value));
			},
			registerTool: (tool: ExtensionTool) => {
				this.#guard('registerTool');
				const checked = checkExtensionTool(tool);
				const owner = toolOwners.get(checked.name) ?? (this.tools.some(other => other.name === checked.name) ? `extension ${name}` : undefined);
				if (owner !== undefined) throw new Error(`registerTool: the tool name "${checked.name}" is taken by ${owner}; extension tools never shadow another tool`);
				this.tools.push(checked);
			},
			registerEventHandler: (tag: unknown, handler: unknown) => {
				this.#guard('registerEventHandler');
				if (!isEventTag(tag)) throw new Error(`registerEventHandler: unknown event tag ${JSON.stringify(tag)}; the tags are ${eventTags.join(', ')}`);
				if (typeof handler !== 'function') throw new Error(`registerEventHandler ${tag}: the handler must be a function (event, ctx) => answer`);
				this.handlers.push({tag, handler: handler as EventHandler});
			},
			registerFlag: (flag: unknown, spec: unknown) => {
				this.#guard('registerFlag');
				const checked = commandLine.check(name, flag, spec, this.flags);
				this.flags.set(checked.name, checked.spec);
				values.set(checked.name, checked.value);
			},
			registerCommand: (command: unknown, spec: unknown) => {
				this.#guard('registerCommand');
				const checked = checkCommand(command, spec);
				const owner = commandOwners.get(checked.name) ?? (this.commands.has(checked.name) ? `extension ${name}` : undefined);
				if (owner !== undefined) throw new Error(`registerCommand: /${checked.name} is taken by ${owner}`);
				this.commands.set(checked.name, checked.command);
			},
			registerProvider: (provider: unknown) => this.#addProvider(provider, false),
			registerStreamingProvider: (provider: unknown) => this.#addProvider(provider, true),
			registerOAuthProvider: (registration: unknown) => {
				this.#guard('registerOAuthProvider');
				const checked = checkOAuthProvider(registration);
				if (this.oauth.has(checked.id)) throw new Error(`registerOAuthProvider: extension ${name} registered an OAuth flow for "${checked.id}" already; one per provider`);
				this.oauth.set(checked.id, checked);
			},
			registerMarkdownTransformer: (transform: unknown) => {
				this.#guard('registerMarkdownTransformer');
				this.markdownTransformers.push(checkMarkdownTransformer(transform));
			},
			registerMessageRenderer: (customType: unknown, render: unknown) => this.#addRenderer('message', 'registerMessageRenderer', customType, render),
			registerEntryRenderer: (customType: unknown, render: unknown) => this.#addRenderer('entry', 'registerEntryRenderer', customType, render),
			registerResourcesDiscover: (handler: unknown) => {
				this.#guard('registerResourcesDiscover');
				if (typeof handler !== 'function') throw new Error('registerResourcesDiscover: the handler must be a function (event, ctx) => ({skillPaths?, promptPaths?, themePaths?})');
				this.discoverers.push(handler as EventHandler);
			},
			registerBeforeAgentStart: (handler: unknown) => {
				this.#guard('registerBeforeAgentStart');
				if (typeof handler !== 'function') throw new Error('registerBeforeAgentStart: the handler must be a function (event, ctx) => ({systemPrompt?})');
				this.beforeAgentStart.push(handler as EventHandler);
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
	}

	#addRenderer(kind: 'message' | 'entry', slot: 'registerMessageRenderer' | 'registerEntryRenderer', customType: unknown, render: unknown): void {
		this.#guard(slot);
		const checked = checkRenderer<MessageRenderer & EntryRenderer>(slot, customType, render);
		const owner = this.#owners.rendererOwners.get(rendererKey(kind, checked.customType)) ?? (this.renderers[kind].has(checked.customType) ? `extension ${this.#name}` : undefined);
		if (owner !== undefined) throw new Error(`${slot}: the ${kind} renderer of customType "${checked.customType}" is taken by ${owner}; one renderer per customType`);
		this.renderers[kind].set(checked.customType, checked.render);
	}

	/** spec/extensions.md §5: streaming after one-shot for the same id replaces it in place (streaming is the superset); anything else twice is a mistake. */
	#addProvider(value: unknown, streaming: boolean): void {
		const slot = streaming ? 'registerStreamingProvider' : 'registerProvider';
		this.#guard(slot);
		const checked = checkProvider(value, streaming);
		const owner = this.#owners.providerOwners.get(checked.id);
		// spec/extensions.md §11: the first registration of an id wins, with its catalogue; the later one is said, naming both, and the rest of its extension loads.
		if (owner !== undefined) {
			if (!this.shadowedProviders.has(checked.id)) this.notices.push(`extension ${this.#name}: its provider "${checked.id}" is not used: ${owner} registered that id first (and its catalogue entry counts)`);
			this.shadowedProviders.add(checked.id);
			return;
		}

		const earlier = this.providers.get(checked.id);
		if (earlier && (earlier.streaming || !streaming)) {
			throw new Error(
				`${slot}: extension ${this.#name} registered the provider "${checked.id}" already (${earlier.streaming ? 'streaming' : 'one-shot'}); only a streaming registration after a one-shot one replaces it`,
			);
		}

		this.providers.set(checked.id, checked);
	}
}
