import type {PlatformDirs} from '../config/dirs.js';
import {type ModelsFile, projectEndpoints, readModelsFiles, withoutEndpoints} from '../catalogue/models-file.js';

/**
 * A run's models.json files as they count: a project's entries that point a
 * provider elsewhere (an endpoint, headers, a key variable) only in a
 * trusted workspace, as the project's MCP servers and extensions; in any
 * other they are left out, and a warning names them and how to trust.
 */
export async function readTrustedModelsFiles(where: {dirs: PlatformDirs; workspace: string; trustProject?: boolean | undefined}): Promise<{files: ModelsFile[]; warnings: string[]}> {
	const {dirs, workspace} = where;
	const files = await readModelsFiles(dirs.config_dir, workspace);
	const endpoints = files.flatMap(file => projectEndpoints(file, workspace));
	if (endpoints.length === 0) return {files, warnings: []};
	const {decideTrust} = await import('./decide-trust.js');
	const outcome = await decideTrust({trustProject: where.trustProject, canAsk: false}, {workspace, dirs, events: null});
	if ('trusted' in outcome && outcome.trusted) return {files, warnings: []};
	const how = 'answer yes when the chat screen asks about the workspace, or run with --trust-project';
	return {
		files: files.map(file => (file.project ? withoutEndpoints(file) : file)),
		warnings: [`the workspace ${workspace} is not trusted, so its models.json moves no provider (${how}): ${endpoints.join('; ')}`],
	};
}
