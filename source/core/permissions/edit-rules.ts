import {readFile, stat} from 'node:fs/promises';
import {join, relative, sep} from 'node:path';
import {UsageError} from '../errors.js';
import {writeFileAtomic} from '../fs/atomic-write.js';
import {MAX_SETTINGS_ENTRIES} from '../extensions/settings-file.js';
import {updateSettings} from '../extensions/settings-packages.js';
import {localSettingsPath} from './rule-files.js';
import {parseRule, RuleError, type RuleContext, type RuleList} from './parse-rule.js';

/**
 * Adds `rule` to a list of a settings file's `permissions` (`/permissions`,
 * the question's "always, for this project"), keeping every other key and
 * the file's indentation; false when the list has it already. The rule is
 * checked as a run checks it first: a rule that cannot be used is never
 * written. Creating the workspace's `.i/settings.local.json` also adds it to
 * the workspace's `.gitignore`, when the workspace is a git repository or
 * has one.
 */
export async function addPermissionRule(file: string, list: RuleList, rule: string, context: RuleContext & {workspace: string}): Promise<boolean> {
	try {
		parseRule(rule, list, file, context);
	} catch (error) {
		if (error instanceof RuleError) throw new UsageError(`${file}: permissions.${list}: ${JSON.stringify(rule)}: ${error.message}`);
		throw error;
	}

	const local = file === localSettingsPath(context.workspace);
	const created = local && !(await exists(file));
	let added = false;
	await updateSettings(file, data => {
		const permissions = permissionsAt(data, file);
		const entries = permissions[list] ?? [];
		if (entries.includes(rule)) return false;
		// The reader refuses a list past the bound; one more entry would make the file unreadable.
		if (entries.length >= MAX_SETTINGS_ENTRIES) throw new UsageError(`${file}: "permissions.${list}" holds ${entries.length} rules, the most it may; remove one first`);
		data.permissions = {...permissions, [list]: [...entries, rule]};
		added = true;
		return true;
	});
	if (created && added) await ignoreInGit(context.workspace, file);
	return added;
}

/** Removes `rule` (as written) from a list of a settings file's `permissions`; false when it is not there. */
export async function removePermissionRule(file: string, list: RuleList, rule: string): Promise<boolean> {
	if (!(await exists(file))) return false;
	let removed = false;
	await updateSettings(file, data => {
		const permissions = permissionsAt(data, file);
		const entries = permissions[list] ?? [];
		if (!entries.includes(rule)) return false;
		data.permissions = {...permissions, [list]: entries.filter(entry => entry !== rule)};
		removed = true;
		return true;
	});
	return removed;
}

/**
 * Adds the file to the workspace's `.gitignore`, once: only in a git
 * repository or a workspace with a `.gitignore` (anywhere else there is
 * nothing to commit it by).
 */
export async function ignoreInGit(workspace: string, file: string): Promise<boolean> {
	const ignoreFile = join(workspace, '.gitignore');
	const [hasGit, text] = await Promise.all([exists(join(workspace, '.git')), readFile(ignoreFile, 'utf8').catch(() => undefined)]);
	if (!hasGit && text === undefined) return false;
	const line = relative(workspace, file).split(sep).join('/');
	const lines = (text ?? '').split(/\r?\n/).map(entry => entry.trim());
	if (lines.includes(line) || lines.includes(`/${line}`)) return false;
	const before = text === undefined || text === '' || text.endsWith('\n') ? (text ?? '') : `${text}\n`;
	await writeFileAtomic(ignoreFile, `${before}${line}\n`);
	return true;
}

function permissionsAt(data: Record<string, unknown>, file: string): Partial<Record<RuleList, string[]>> {
	// Checked by readSettingsJson (under updateSettings): lists of non-empty strings, or absent.
	const permissions = data.permissions ?? {};
	if (typeof permissions !== 'object' || permissions === null || Array.isArray(permissions)) throw new UsageError(`settings ${file}: "permissions" must be an object; fix it by hand first`);
	return permissions as Partial<Record<RuleList, string[]>>;
}

async function exists(path: string): Promise<boolean> {
	return stat(path).then(
		() => true,
		() => false,
	);
}
