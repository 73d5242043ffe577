import type {AnyFlags} from 'meow';
import type {PlatformDirs} from '../core/config/dirs.js';
import {checkedDirs} from '../core/config/checked-dirs.js';
import {join} from 'node:path';
import {configPath} from '../core/config/load-config.js';
import {PROVIDER_FILE} from '../core/config/provider-file.js';
import {moduleConfigPath} from '../core/config/module-config.js';
import {workspaceId, workspaceStateDir} from '../core/config/workspace-registry.js';
import {parseCommandLine} from '../command-line/parse-command-line.js';
import {errorMessage, exitCodes} from '../core/errors.js';
import {modulesWithConfigFile} from '../core/plugins/modules.js';
import {workspaceFolder} from './workspace-folder.js';

const pathsFlags = {
	cwd: {type: 'string', shortFlag: 'C'},
	json: {type: 'boolean', default: false},
} satisfies AnyFlags;

interface ResolvedPaths extends PlatformDirs {
	workspace: string;
	workspace_id: string;
	workspace_state_dir: string;
	/** The config file the core and each official module that has one would read (they may not exist). */
	config_files: Record<string, string>;
}

/**
 * `i --runtime paths [-C DIR] [--json]`: what this program resolves for a
 * workspace (spec/platform.md §3): its canonical path and ID (registered if new), the
 * four folders, its state folder and the config files that would be read.
 */
export async function runCommand(args: string[]): Promise<number> {
	try {
		const {flags} = parseCommandLine(args, {flags: pathsFlags});
		const resolved = await resolvePaths(flags.cwd ?? '.');
		process.stdout.write(flags.json ? `${JSON.stringify(resolved)}\n` : plainLines(resolved));
		return exitCodes.ok;
	} catch (error) {
		process.stderr.write(`i: --runtime paths: ${errorMessage(error)}\n`);
		return exitCodes.usage;
	}
}

async function resolvePaths(dir: string): Promise<ResolvedPaths> {
	const workspace = await workspaceFolder(dir);

	// The same rules a request's `paths` must meet, so a bad I_*_DIR shows here and not as failing workers.
	const dirs = checkedDirs();
	const id = await workspaceId(workspace, dirs);
	// provider.json is the core's too: its HTTP adapters read it (spec/platform.md §4).
	const configFiles: Record<string, string> = {core: configPath(undefined, dirs.config_dir), provider: join(dirs.config_dir, PROVIDER_FILE)};
	for (const module of modulesWithConfigFile) configFiles[module] = moduleConfigPath(module, undefined, dirs);
	return {workspace, workspace_id: id, ...dirs, workspace_state_dir: workspaceStateDir(dirs, id), config_files: configFiles};
}

function plainLines(resolved: ResolvedPaths): string {
	const {config_files: configFiles, ...rest} = resolved;
	const lines = Object.entries(rest).map(([key, value]) => `${key}: ${value}`);
	for (const [module, path] of Object.entries(configFiles)) lines.push(`config.${module}: ${path}`);
	return `${lines.join('\n')}\n`;
}
