import {stat} from 'node:fs/promises';
import type {ResourceFolder} from '../../core/resources/resource-folders.js';
import type {ModuleFolders} from '../../core/session/module-folders.js';

/**
 * The skill and prompt-template folders that exist, as /context lists them
 * under its rows: a project set up for another agent (`.claude/skills`,
 * `.pi/`) shows here what of it `i` found. A kind no module reads is left
 * out; a folder searched but missing is only counted, since most are.
 */
export async function formatFoundFolders(folders: ModuleFolders): Promise<string> {
	const kinds = [
		{title: 'Skill folders', list: folders.skills},
		{title: 'Prompt template folders', list: folders.prompts},
	];
	const sections = await Promise.all(kinds.map(async ({title, list}) => (list === null ? [] : section(title, list, await existing(list)))));
	return sections.flat().join('\n');
}

function section(title: string, searched: readonly ResourceFolder[], found: readonly ResourceFolder[]): string[] {
	const missing = searched.length - found.length;
	const rest = missing === 0 ? '' : `; ${missing} more searched ${missing === 1 ? 'does' : 'do'} not exist`;
	if (found.length === 0) return [`${title}: none found (${searched.length} searched)`];
	return [`${title} found, first first${rest}:`, ...found.map(folder => `  ${folder.path}  (${folder.origin})`)];
}

async function existing(list: readonly ResourceFolder[]): Promise<ResourceFolder[]> {
	const found = await Promise.all(list.map(async folder => ((await stat(folder.path).catch(() => undefined))?.isDirectory() ? folder : undefined)));
	return found.filter(folder => folder !== undefined);
}
