import path from 'node:path';
import type {RuleList} from '../../core/permissions/parse-rule.js';
import type {RuleFileChoice, RunPermissions} from '../../core/session/run-permissions.js';
import type {ListedRule} from '../../core/session/start-permissions.js';

/** The flags that choose the file; without one, the project's own `.i/settings.local.json`. */
const FILE_FLAGS: Readonly<Record<string, RuleFileChoice>> = {'--local': 'local', '--project': 'project', '--global': 'global'};
const VERBS = ['allow', 'ask', 'deny', 'remove'] as const;

/** What the person typed after `/permissions`: a listing, a change, or null when it is not understood. */
export type PermissionsRequest = {kind: 'list'} | {kind: (typeof VERBS)[number]; rule: string; where: RuleFileChoice};

/** `allow RULE`, `deny --global RULE`, `remove RULE --project`: one file flag, before or after the rule (a rule's pattern may hold spaces). */
export function parsePermissionsArgs(args: string): PermissionsRequest | null {
	const text = args.trim();
	if (text === '') return {kind: 'list'};
	const [verb = '', ...words] = text.split(/\s+/);
	if (!(VERBS as readonly string[]).includes(verb)) return null;
	let rest = text.slice(verb.length).trim();
	let where: RuleFileChoice = 'local';
	const first = words[0] ?? '';
	const last = words.at(-1) ?? '';
	if (FILE_FLAGS[first] && words.length > 1) {
		where = FILE_FLAGS[first];
		rest = rest.slice(first.length).trim();
	} else if (FILE_FLAGS[last] && words.length > 1) {
		where = FILE_FLAGS[last];
		rest = rest.slice(0, -last.length).trim();
	}

	if (rest === '' || Object.keys(FILE_FLAGS).some(flag => rest.split(/\s+/).includes(flag))) return null;
	return {kind: verb as (typeof VERBS)[number], rule: rest, where};
}

/** The rules in force, strongest list first, each with its file; a rule that does not count says why. */
export function formatRules(rules: readonly ListedRule[], problems: readonly string[], workspace: string): string {
	if (rules.length === 0 && problems.length === 0) return 'No permission rules. /permissions allow RULE adds one to .i/settings.local.json (docs/approvals.md, "Permission rules").';
	const lines = ['Permission rules (deny beats ask beats allow):'];
	const width = Math.max(...rules.map(rule => rule.text.length));
	for (const list of ['deny', 'ask', 'allow'] as const) {
		for (const rule of rules.filter(entry => entry.list === list)) {
			const note = rule.why === null ? '' : ` — does not count: ${rule.why}`;
			lines.push(`  ${list.padEnd(5)} ${rule.text.padEnd(width)}  ${shownFile(rule.file, workspace)} (${rule.source})${note}`);
		}
	}

	if (problems.length > 0) lines.push('Rules that cannot be used:', ...problems.map(problem => `  ${problem}`));
	return lines.join('\n');
}

/** Carries out a change and says what it did; a malformed rule throws the parser's UsageError. */
export async function changeRules(permissions: RunPermissions, request: Exclude<PermissionsRequest, {kind: 'list'}>): Promise<string> {
	const workspace = permissions.workspace;
	if (request.kind === 'remove') {
		const change = await permissions.remove(request.rule, request.where);
		const file = shownFile(change.file, workspace);
		if (change.changed) return withWarnings(`Removed ${request.rule} from ${change.lists.join(' and ')} in ${file}.`, change.warnings);
		const elsewhere = permissions.rules.filter(rule => rule.text === request.rule).map(rule => `${shownFile(rule.file, workspace)} (${rule.source})`);
		return `${request.rule} is not in ${file}${elsewhere.length > 0 ? `; it is in ${[...new Set(elsewhere)].join(' and ')}: add --project or --global to remove it there` : ''}.`;
	}

	const list: RuleList = request.kind;
	const change = await permissions.add(list, request.rule, request.where);
	const file = shownFile(change.file, workspace);
	return withWarnings(change.changed ? `Added ${request.rule} to ${list} in ${file}; it counts from the next tool call.` : `${request.rule} is already in ${list} in ${file}.`, change.warnings);
}

function withWarnings(text: string, warnings: readonly string[]): string {
	return [text, ...warnings].join('\n');
}

/** A file in the workspace by its relative path, any other by its absolute one. */
export function shownFile(file: string, workspace: string): string {
	const relative = path.relative(workspace, file);
	return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}
