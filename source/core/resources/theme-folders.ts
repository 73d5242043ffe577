import {join} from 'node:path';
import type {DiscoveredPath} from '../extensions/discover-resources.js';
import type {RunSettings} from '../extensions/settings-file.js';
import type {ResourceFolder} from './resource-folders.js';

/** The project's theme files (spec/extensions.md §8 `.i/themes/`). */
export const PROJECT_THEME_FOLDER = '.i/themes';
/** The person's own, in `<config_dir>`. */
export const GLOBAL_THEME_FOLDER = 'themes';
/** Where an installed package keeps its themes, beside its package.json. */
export const PACKAGE_THEME_FOLDER = 'themes';

/**
 * The folders the chat screen finds themes in, the first of a name winning
 * (docs/themes.md): the project's, the global config folder's, what the
 * extensions discovered (`themePaths`, spec/extensions.md §5), then the
 * settings' packages (the project's, then the global ones). Theme files are
 * data: read in any workspace, like skill folders. A folder named twice
 * counts where it came first; a missing one is skipped when read.
 */
export function themeFolders(place: {workspace: string; configDir: string}, settings: RunSettings, discovered: readonly DiscoveredPath[]): ResourceFolder[] {
	const packages = [settings.project, settings.global].flatMap(file => (file ? file.packages.map(path => ({path: join(path, PACKAGE_THEME_FOLDER), origin: `package ${path}`})) : []));
	const folders: ResourceFolder[] = [
		{path: join(place.workspace, PROJECT_THEME_FOLDER), origin: 'the workspace'},
		{path: join(place.configDir, GLOBAL_THEME_FOLDER), origin: 'the config folder'},
		...discovered.map(({path, extension}) => ({path, origin: `extension ${extension}`})),
		...packages,
	];
	const seen = new Set<string>();
	return folders.filter(folder => !seen.has(folder.path) && seen.add(folder.path));
}
