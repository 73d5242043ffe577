import {join} from 'node:path';
import type {LoadedPlugins} from '../pool/types.js';
import {PROJECT_PROMPT_FOLDER, type ResourceFolders} from '../resources/resource-folders.js';
import type {ResourceOptions} from './load-resources.js';

/** The prompts module's hook that expands `/name …`: without it a template folder has no one to read it. */
export function expandsTemplates(plugins: LoadedPlugins): boolean {
	return plugins.hooks.some(hook => hook.module === 'prompts' && (hook.events.includes('user_input') || hook.events.includes('*')));
}

export function templateFolders(folders: ResourceFolders | undefined, workspace: string): string[] {
	return folders?.prompts?.map(folder => folder.path) ?? [join(workspace, PROJECT_PROMPT_FOLDER)];
}

/** `--skill` and `--prompt-template` with no module to read their folders: said, since nothing else would show it. */
export function unusedFolderFlags(options: ResourceOptions, plugins: LoadedPlugins): string[] {
	const has = (module: string) => plugins.hooks.some(hook => hook.module === module) || plugins.tools.some(tool => tool.module === module);
	const warnings: string[] = [];
	if ((options.skills?.length ?? 0) > 0 && !has('skills')) warnings.push('--skill: no skills module is configured (the skills, standard or full profile), so its folders are not read');
	if ((options.promptTemplates?.length ?? 0) > 0 && !expandsTemplates(plugins)) {
		warnings.push('--prompt-template: no prompts module is configured (the standard or full profile), so its templates are not expanded');
	}

	return warnings;
}
