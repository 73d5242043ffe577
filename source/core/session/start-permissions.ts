import {realpath} from 'node:fs/promises';
import {homedir} from 'node:os';
import type {PermissionCheck} from '../agent/approval-gate.js';
import type {PlatformDirs} from '../config/dirs.js';
import {UsageError} from '../errors.js';
import type {EventBus} from '../extensions/event-bus.js';
import type {RunSettings} from '../extensions/settings-file.js';
import type {Tool} from '../tools/types.js';

/** What the permission rules of a start need from set-up. */
export interface PermissionStart {
	workspace: string;
	dirs: PlatformDirs;
	/** The run's global and project settings, as the extensions' start read them. */
	settings: RunSettings;
	/** ProjectTrust handlers, asked again (decide-trust.ts) when the project has allow rules. */
	events: EventBus | null;
	/** The worker and extension tools' names: a rule naming a tool there is not is an error. */
	toolNames: readonly string[];
	trustProject: boolean | undefined;
	/** `fail`: a rule that cannot be used stops the start (a UsageError, exit 2); `notice`: it is said, and no allow rule counts (the chat screen). */
	problems: 'fail' | 'notice';
	warn(message: string): void;
}

/** startPermissions from set-up's parts: the start's options, its place, the extensions it started and the core's tools. */
export async function permissionsOfStart(
	options: {trustProject?: boolean | undefined; permissionProblems?: 'fail' | 'notice' | undefined},
	place: {workspace: string; dirs: PlatformDirs; warn(message: string): void},
	started: {settings: RunSettings; events: EventBus | null; tools: readonly Tool[]},
	coreTools: readonly Tool[],
): Promise<PermissionCheck | undefined> {
	const toolNames = [...coreTools, ...started.tools].map(tool => tool.name);
	return startPermissions({...place, settings: started.settings, events: started.events, toolNames, trustProject: options.trustProject, problems: options.permissionProblems ?? 'fail'});
}

/**
 * The settings files' permission rules as the approval gate's check
 * (docs/approvals.md, "Permission rules"); undefined when no file has any,
 * in which case nothing more is loaded. The project's allow rules, in
 * `.i/settings.json` and in `.i/settings.local.json` alike, count only in a
 * trusted workspace: a clone or an archive can carry either file, and
 * nothing tells `i` who wrote it. Its deny and ask rules always count.
 */
export async function startPermissions(start: PermissionStart): Promise<PermissionCheck | undefined> {
	// A start without rules reads the local file and loads nothing else.
	const {readRuleFiles} = await import('../permissions/rule-files.js');
	const files = await readRuleFiles(start.settings, start.workspace);
	if (files.length === 0) return undefined;
	const [{compileRules}, {platformPlace}, {platformDialect}, {callSubjects}, {decideByRules}] = await Promise.all([
		import('../permissions/load-permissions.js'),
		import('../permissions/path-pattern.js'),
		import('../permissions/shell-commands.js'),
		import('../permissions/call-subjects.js'),
		import('../permissions/decide.js'),
	]);
	const workspace = await realpath(start.workspace);
	const dialect = platformDialect();
	const {rules, problems} = compileRules(files, {toolNames: start.toolNames, place: platformPlace(workspace, homedir()), dialect});
	let allowsCount = true;
	if (problems.length > 0) {
		const list = problems.map(problem => `  ${problem}`).join('\n');
		if (start.problems === 'fail') throw new UsageError(`the permission rules cannot be used:\n${list}\nFix or remove them (docs/approvals.md, "Permission rules").`);
		start.warn(`the permission rules cannot be used, so no allow rule counts until they are fixed (docs/approvals.md, "Permission rules"):\n${list}`);
		allowsCount = false;
	}

	const projectAllows = rules.filter(rule => rule.list === 'allow' && rule.source !== 'global');
	const projectAllowsCount = allowsCount && projectAllows.length > 0 && (await trusted(start));
	if (allowsCount && projectAllows.length > 0 && !projectAllowsCount) {
		const where = [...new Set(projectAllows.map(rule => rule.file))].join(' and ');
		start.warn(`the workspace ${start.workspace} is not trusted, so the allow rules of ${where} do not count (its deny and ask rules do); pass --trust-project to use them for this run`);
	}

	const counted = rules.filter(rule => rule.list !== 'allow' || (allowsCount && (rule.source === 'global' || projectAllowsCount)));
	if (counted.length === 0) return undefined;
	const byList = {deny: counted.filter(rule => rule.list === 'deny'), ask: counted.filter(rule => rule.list === 'ask'), allow: counted.filter(rule => rule.list === 'allow')};
	return async request => {
		const verdict = await decideByRules(byList, request.name, async () => callSubjects(request.name, request.arguments, workspace, dialect));
		if (!verdict) return null;
		const named = verdict.rules.map(rule => `"${rule.text}" (${rule.file})`).join(' and ');
		const rule = `the permission rule${verdict.rules.length > 1 ? 's' : ''} ${named}`;
		return {decision: verdict.decision, reason: verdict.decision === 'deny' ? `denied by ${rule}` : verdict.decision === 'ask' ? `${rule} asks first` : `allowed by ${rule}`};
	};
}

/** Whether the workspace is trusted without asking anyone: --trust-project, an earlier answer, or an extension's ProjectTrust (decide-trust.ts). */
async function trusted(start: PermissionStart): Promise<boolean> {
	const {decideTrust} = await import('./decide-trust.js');
	const outcome = await decideTrust({trustProject: start.trustProject, canAsk: false}, {workspace: start.workspace, dirs: start.dirs, events: start.events}, []);
	return 'trusted' in outcome && outcome.trusted;
}
