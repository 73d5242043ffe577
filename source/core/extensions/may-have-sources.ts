import {existsSync} from 'node:fs';
import {join, resolve} from 'node:path';

/**
 * Whether `findExtensionSources` could find anything, from flags, the
 * environment and three stats, without loading the settings reader and its
 * schemas: when this says no, there is no extension anywhere and the chat
 * screen draws its first frame as fast as it would without an extension
 * host. A yes only means "look" (a settings file may list none).
 */
export function mayHaveExtensionSources(options: {extensions: readonly string[]; extensionDirs: readonly string[]; workspace: string; configDir: string; env?: NodeJS.ProcessEnv}): boolean {
	const env = options.env ?? process.env;
	if (options.extensions.length > 0 || options.extensionDirs.length > 0 || (env.I_EXTENSIONS_DIR ?? '') !== '') return true;
	const workspace = resolve(options.workspace);
	return [join(workspace, '.i', 'settings.json'), join(workspace, '.i', 'extensions'), join(options.configDir, 'settings.json')].some(path => existsSync(path));
}
