import {join} from 'node:path';
import * as z from 'zod/mini';
import {UsageError} from '../errors.js';
import {describeIssues} from '../tools/arguments.js';
import {isModuleName, moduleNames, type ModuleName} from './modules.js';
import {DEFAULT_PROFILE, isProfileName, profileNames, type ProfileName} from './profiles.js';
import {readJsonFile} from './read-json-file.js';

/** The portable plugin selection, in the config folder (spec/platform.md §1). */
export const SELECTION_FILE = 'plugins.json';

export interface PluginSelection {
	profile: ProfileName;
	disabled: ModuleName[];
}

export const defaultSelection: PluginSelection = {profile: DEFAULT_PROFILE, disabled: []};

const selectionSchema = z.strictObject({
	profile: z.string(),
	disabled: z._default(z.array(z.string()), []),
});

/** Reads `<configDir>/plugins.json`: `{"profile":"standard","disabled":["web"]}`. A missing file selects `standard`. */
export async function readSelection(configDir: string): Promise<PluginSelection> {
	const path = join(configDir, SELECTION_FILE);
	const label = `plugin selection ${path}`;
	const json = await readJsonFile(path, label);
	if (json === undefined) return defaultSelection;
	const parsed = selectionSchema.safeParse(json);
	if (!parsed.success) throw new UsageError(`${label}: ${describeIssues(parsed.error.issues, json, 'the selection')}`);
	const {profile, disabled} = parsed.data;
	if (!isProfileName(profile)) {
		throw new UsageError(`${label}: "profile" ${JSON.stringify(profile)} is not a profile; profiles: ${profileNames.join(', ')}`);
	}

	const unknown = disabled.filter(name => !isModuleName(name));
	if (unknown.length > 0) {
		throw new UsageError(`${label}: "disabled" names ${unknown.map(name => JSON.stringify(name)).join(', ')}, not ${unknown.length === 1 ? 'a module' : 'modules'}; modules: ${moduleNames.join(', ')}`);
	}

	return {profile, disabled: disabled.filter(isModuleName)};
}
