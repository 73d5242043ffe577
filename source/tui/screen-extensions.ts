import type {CliOptions} from '../cli-options.js';
import type {Agent} from '../core/session/agent.js';
import type {ChatStore} from './chat-store.js';
import type {CommandRegistry} from './commands/command-registry.js';
import {externalCommands} from './commands/external-commands.js';
import {customRendering} from './custom-rendering.js';
import {reloadRules} from './reload-rules.js';
import {chainMarkdownTransformers} from './markdown/markdown-transform.js';
import type {TurnController} from './turn-controller.js';

/** What the screen's side of the extensions needs. */
export interface ExtensionParts {
	agent: Pick<Agent, 'extensionUi' | 'mcp' | 'reloadExtensions' | 'permissions' | 'tools'>;
	store: Pick<ChatStore, 'extend' | 'setResources' | 'notice' | 'setBusy'>;
	registry: Pick<CommandRegistry, 'replaceAdded' | 'added'>;
	options: Pick<CliOptions, 'dev' | 'extensions'>;
}

/**
 * The loaded extensions as the screen shows them: their commands (with the
 * MCP servers' prompts) in the registry, their Markdown transformers and
 * renderers in the store, their unhandled rejections as notices; and their
 * reload (/reload, each new `i dev` build), which keeps the loaded
 * generation when it fails.
 */
export class ScreenExtensions {
	readonly #parts: ExtensionParts;
	/** Stops loading `i dev`'s builds. */
	#stopDev: (() => void) | undefined;
	/** The `i dev` build now loaded, replaced by each new one. */
	#devPath: string | undefined;

	constructor(parts: ExtensionParts) {
		this.#parts = parts;
		this.#devPath = parts.options.dev?.first;
	}

	/** The extensions' commands and Markdown transform, in the screen. */
	show(): void {
		const {agent, store, registry} = this.#parts;
		const {markdownTransformers} = agent.extensionUi;
		// The MCP servers' prompts, as their servers list them now (show runs again on each change).
		registry.replaceAdded(externalCommands(agent));
		store.extend({
			commands: registry.added,
			transform: markdownTransformers.length === 0 ? (text: string) => text : chainMarkdownTransformers(markdownTransformers, message => store.notice('warning', message)),
			rendering: customRendering(agent.extensionUi, message => store.notice('warning', message)),
		});
	}

	/**
	 * The MCP servers' prompts join the commands as their servers become ready (and leave when one fails).
	 * Their resources join the @ picker the same way (and leave with a server that stopped).
	 */
	followMcp(): void {
		const {agent, store} = this.#parts;
		const showResources = () => store.setResources((agent.mcp.servers?.resources() ?? []).map(resource => ({path: resource.mention, directory: false, resource: resource.name})));
		void agent.mcp.ready.then(servers => {
			showResources();
			servers?.subscribe(() => {
				this.show();
				showResources();
			});
		});
	}

	/** i dev: each build the watcher made is loaded once no turn or command is running; a failed one is shown, the loaded version stays. */
	watchDev(turns: Pick<TurnController, 'whenIdle'>): void {
		const {store, options} = this.#parts;
		this.#stopDev = options.dev?.onBuild(build => {
			if (!build.ok) {
				store.notice('error', `the build failed; the loaded version stays:\n${build.error}`);
				return;
			}

			turns.whenIdle(async () => {
				store.setBusy(true);
				try {
					await this.reload(build.path);
				} finally {
					store.setBusy(false);
				}
			});
		});
	}

	/**
	 * Loads every extension again (/reload, or a new `i dev` build): `build`
	 * is the new build's staged copy; with `i dev` and none, it builds first.
	 * On any failure the loaded generation stays and the screen says why.
	 * Then, whatever the outcome, the permission rules are read again with the
	 * tools now loaded (a rule may name one), before the closing notice: that
	 * stays the reload's last word.
	 */
	async reload(build?: string): Promise<void> {
		const {agent, store, options} = this.#parts;
		let path = build;
		if (options.dev && path === undefined) {
			const built = await options.dev.rebuild();
			if (!built.ok) {
				await reloadRules(agent, store);
				store.notice('error', `the build failed; the loaded version stays:\n${built.error}`);
				return;
			}

			path = built.path;
		}

		const extensions = path === undefined ? undefined : [path, ...options.extensions.filter(other => other !== this.#devPath)];
		const result = await agent.reloadExtensions(extensions ? {extensions} : {});
		await reloadRules(agent, store);
		if (!result.ok) {
			store.notice('error', `the reload failed; the extensions loaded before stay:\n${result.problems.join('\n')}`);
			return;
		}

		if (path !== undefined) this.#devPath = path;
		this.show();
		for (const message of result.warnings) store.notice('warning', message);
		store.notice('info', `reloaded ${result.loaded} extension${result.loaded === 1 ? '' : 's'}`);
	}

	/** The chat ends: no new build is loaded. */
	stop(): void {
		this.#stopDev?.();
	}
}
