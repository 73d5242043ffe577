import {resolveDirs} from '../core/config/dirs.js';
import {mayHaveExtensionSources} from '../core/extensions/may-have-sources.js';
import type {ExtensionOptions, ExtensionStartup} from '../core/session/start-extensions.js';
import type {StartOptions, StartedPlugins} from '../core/session/start-plugins.js';

export type BeforeScreen =
	/** No extension is listed anywhere: the screen comes first and the agent is set up behind it (`extensions`: what was looked at, when it was). */
	| {kind: 'screen-first'; extensions: ExtensionStartup | undefined}
	/** The config, the plugins and the first extensions are loaded, and BeforeTuiStart let the screen start. */
	| {kind: 'ready'; started: Promise<StartedPlugins>; extensions: ExtensionStartup}
	| {kind: 'vetoed'; extension: string; reason: string | null; warnings: readonly string[]};

/**
 * What the chat screen does before it touches the terminal
 * (spec/extensions.md §5: a BeforeTuiStart veto leaves the terminal
 * untouched). Only when extensions are listed: then the config and the
 * manifests (the worker tools' names, which extension tools may not take),
 * the extensions that can load without asking the person, and BeforeTuiStart.
 * Without, it costs a few stats (or, with a settings file, the look into it).
 * Project extensions of a workspace nobody decided for yet load after the
 * trust question, which needs the screen: BeforeTuiStart is over for them.
 * The workers started are stopped again when this fails or is vetoed.
 * `beforeLoading` is called once extensions are to be loaded, before any is.
 */
export async function beforeScreen(options: StartOptions & ExtensionOptions, context: {report(message: string): void; columns: number; rows: number; beforeLoading?: () => void}): Promise<BeforeScreen> {
	const listed = {extensions: options.extensions ?? [], extensionDirs: options.extensionDirs ?? []};
	if (options.noExtensions || !mayHaveExtensionSources({...listed, workspace: options.cwd ?? '.', configDir: resolveDirs().config_dir})) return {kind: 'screen-first', extensions: undefined};
	context.beforeLoading?.();
	const [{startPlugins, resolveWorkspace}, {checkedDirs}, {ExtensionStartup}, {nativeToolNames}] = await Promise.all([
		import('../core/session/start-plugins.js'),
		import('../core/config/checked-dirs.js'),
		import('../core/session/start-extensions.js'),
		import('../core/tools/native-tool-names.js'),
	]);
	const extensions = await ExtensionStartup.find(options, {workspace: resolveWorkspace(options.cwd), dirs: checkedDirs()});
	if (!extensions.found) return {kind: 'screen-first', extensions};
	const started = startPlugins(options);
	const {workspace, plugins, pool} = await started;
	try {
		const takenToolNames = new Map<string, string>([...nativeToolNames.map(name => [name, 'a native tool'] as const), ...plugins.tools.map(tool => [tool.name, 'a worker tool'] as const)]);
		await extensions.loadFirst({takenToolNames, report: context.report});
		const veto = await extensions.events?.veto('BeforeTuiStart', {workspace, columns: context.columns, rows: context.rows});
		if (!veto?.vetoed) return {kind: 'ready', started, extensions};
		await pool?.close();
		return {kind: 'vetoed', extension: veto.extension, reason: veto.reason, warnings: extensions.warnings};
	} catch (error) {
		await pool?.close();
		throw error;
	}
}
