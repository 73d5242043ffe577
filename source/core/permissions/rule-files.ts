import {join} from 'node:path';
import {readSettingsFile, type PermissionLists, type RunSettings} from '../extensions/settings-file.js';

/** The lists of `permissions`, in the order they are read (settings-file.ts checks their shape). */
const listNames = ['deny', 'ask', 'allow'] as const;

/** Whose a settings file is: the global file is the person's own; the project's two are in the workspace. */
export type RuleSource = 'global' | 'project' | 'local';

/** One settings file's rules as written. */
export interface RuleFile {
	source: RuleSource;
	path: string;
	lists: PermissionLists;
}

export {globalSettingsPath, projectSettingsPath} from '../extensions/settings-file.js';

/** The project's file that is not meant to be committed: `i` adds it to `.gitignore` when it creates it (edit-rules.ts). */
export function localSettingsPath(workspace: string): string {
	return join(workspace, '.i', 'settings.local.json');
}

/** The run's settings files with rules in them: the global and the project's file as the run read them, and the local file, read here. */
export async function readRuleFiles(settings: RunSettings, workspace: string): Promise<RuleFile[]> {
	const local = await readSettingsFile(localSettingsPath(workspace));
	const files: RuleFile[] = [];
	for (const [source, read] of [
		['global', settings.global],
		['project', settings.project],
		['local', local],
	] as const) {
		const lists = read?.permissions;
		if (read && lists && listNames.some(list => lists[list].length > 0)) files.push({source, path: read.path, lists});
	}

	return files;
}
