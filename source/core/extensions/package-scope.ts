import {dirname, join} from 'node:path';
import {packagesPrefix} from './settings-file.js';

/**
 * Where `i install` puts a package and lists it: the project's
 * `.i/settings.json` (project code, loaded only in a trusted workspace) or,
 * with `--global`, `<config_dir>/settings.json` (the person's own, loaded in
 * every workspace). The package itself goes to the settings folder's npm
 * prefix, where a bare name in that file is found (settings-file.ts).
 */
export interface PackageScope {
	kind: 'project' | 'global';
	settingsPath: string;
	/** The settings file's folder: `.i/` or `<config_dir>`. */
	folder: string;
	/** npm's prefix: `<folder>/npm`. */
	prefix: string;
}

export function projectScope(workspace: string): PackageScope {
	return scope('project', join(workspace, '.i', 'settings.json'));
}

export function globalScope(configDir: string): PackageScope {
	return scope('global', join(configDir, 'settings.json'));
}

function scope(kind: PackageScope['kind'], settingsPath: string): PackageScope {
	const folder = dirname(settingsPath);
	return {kind, settingsPath, folder, prefix: packagesPrefix(folder)};
}

/** How output names a scope: `for this project`, `for every workspace`. */
export function describeScope(kind: PackageScope['kind']): string {
	return kind === 'project' ? 'for this project' : 'for every workspace';
}
