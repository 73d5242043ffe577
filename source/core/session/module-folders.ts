import {join} from 'node:path';
import type {LoadedPlugins} from '../pool/types.js';
import {DEFAULT_PROMPT_FOLDERS, DEFAULT_SKILL_FOLDERS, type ResourceFolder, type ResourceFolders} from '../resources/resource-folders.js';
import type {ResourceOptions} from './load-resources.js';

/** The prompts module's hook that expands `/name …`: without it a template folder has no one to read it. */
export function expandsTemplates(plugins: LoadedPlugins): boolean {
	return plugins.hooks.some(hook => hook.module === 'prompts' && (hook.events.includes('user_input') || hook.events.includes('*')));
}

/** The folders each module searches, first first: the host's list, or the module's defaults; null for a kind no configured module reads. */
export interface ModuleFolders {
	skills: readonly ResourceFolder[] | null;
	prompts: readonly ResourceFolder[] | null;
}

/** What the modules of `plugins` search, for the prompt templates' picker and /context. */
export function moduleFolders(folders: ResourceFolders | undefined, workspace: string, plugins: LoadedPlugins): ModuleFolders {
	const defaults = (list: readonly string[]) => list.map(path => ({path: join(workspace, path), origin: 'the workspace'}));
	return {
		skills: readsSkills(plugins) ? (folders?.skills ?? defaults(DEFAULT_SKILL_FOLDERS)) : null,
		prompts: expandsTemplates(plugins) ? (folders?.prompts ?? defaults(DEFAULT_PROMPT_FOLDERS)) : null,
	};
}

function readsSkills(plugins: LoadedPlugins): boolean {
	return plugins.hooks.some(hook => hook.module === 'skills') || plugins.tools.some(tool => tool.module === 'skills');
}

/** `--skill` and `--prompt-template` with no module to read their folders: said, since nothing else would show it. */
export function unusedFolderFlags(options: ResourceOptions, plugins: LoadedPlugins): string[] {
	const warnings: string[] = [];
	if ((options.skills?.length ?? 0) > 0 && !readsSkills(plugins)) warnings.push('--skill: no skills module is configured (the skills, standard or full profile), so its folders are not read');
	if ((options.promptTemplates?.length ?? 0) > 0 && !expandsTemplates(plugins)) {
		warnings.push('--prompt-template: no prompts module is configured (the standard or full profile), so its templates are not expanded');
	}

	return warnings;
}
