import {realpath} from 'node:fs/promises';
import {homedir} from 'node:os';
import type {PermissionCheck} from '../agent/approval-gate.js';
import type {PlatformDirs} from '../config/dirs.js';
import {UsageError} from '../errors.js';
import type {EventBus} from '../extensions/event-bus.js';
import type {RunSettings} from '../extensions/settings-file.js';
import type {TrustOutcome} from './decide-trust.js';

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

/** A rule of the settings files as /permissions lists it: whose file, and whether it counts this run. */
export interface ListedRule {
	text: string;
	list: 'allow' | 'ask' | 'deny';
	file: string;
	source: 'global' | 'project' | 'local';
	/** False for a project's allow rule in a workspace that is not trusted, or any allow rule while some rule cannot be used. */
	counts: boolean;
	/** Why it does not count; null when it does. */
	why: string | null;
}

/** The rules read, and the gate's check; `check` is undefined when none counts. */
export interface ReadPermissions {
	rules: ListedRule[];
	/** The rules that cannot be used, each naming its file and why. */
	problems: string[];
	check: PermissionCheck | undefined;
}

/** The key of a rule the person added in this run (`/permissions`, "always, for this project"): it counts without trust. */
export function personalKey(file: string, list: string, text: string): string {
	return `${file}\n${list}\n${text}`;
}

/**
 * The settings files' permission rules, listed and as the approval gate's
 * check (docs/approvals.md, "Permission rules"); `check` is undefined when
 * no rule counts, and without rules nothing more is loaded. The project's
 * allow rules, in `.i/settings.json` and in `.i/settings.local.json` alike,
 * count only in a trusted workspace: a clone or an archive can carry either
 * file, and nothing tells `i` who wrote it. Its deny and ask rules always
 * count. `personal` holds the rules the person added in this run
 * (personalKey), which count even where the workspace is not trusted: the
 * person wrote them, not the files' source.
 */
export async function readPermissions(start: PermissionStart, personal: ReadonlySet<string> = new Set()): Promise<ReadPermissions> {
	// A start without rules reads the local file and loads nothing else.
	const {readRuleFiles} = await import('../permissions/rule-files.js');
	const files = await readRuleFiles(start.settings, start.workspace);
	if (files.length === 0) return {rules: [], problems: [], check: undefined};
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

	const isPersonal = (rule: {file: string; list: string; text: string}) => personal.has(personalKey(rule.file, rule.list, rule.text));
	const projectAllows = rules.filter(rule => rule.list === 'allow' && rule.source !== 'global' && !isPersonal(rule));
	const trust = allowsCount && projectAllows.length > 0 ? await projectTrust(start) : undefined;
	const projectAllowsCount = trust?.trusted === true;
	if (trust && !trust.trusted) {
		const where = [...new Set(projectAllows.map(rule => rule.file))].join(' and ');
		start.warn(`the workspace ${start.workspace} is not trusted, so the allow rules of ${where} do not count (its deny and ask rules do); ${untrustedFix(trust)}`);
	}

	const counts = (rule: (typeof rules)[number]) => rule.list !== 'allow' || (allowsCount && (rule.source === 'global' || projectAllowsCount || isPersonal(rule)));
	const why = (rule: (typeof rules)[number]) => (counts(rule) ? null : allowsCount ? 'the workspace is not trusted' : 'a rule cannot be used');
	const listed = rules.map(rule => ({text: rule.text, list: rule.list, file: rule.file, source: rule.source, counts: counts(rule), why: why(rule)}));
	const counted = rules.filter(rule => counts(rule));
	if (counted.length === 0) return {rules: listed, problems, check: undefined};
	const byList = {deny: counted.filter(rule => rule.list === 'deny'), ask: counted.filter(rule => rule.list === 'ask'), allow: counted.filter(rule => rule.list === 'allow')};
	return {
		rules: listed,
		problems,
		async check(request) {
			const verdict = await decideByRules(byList, request.name, async () => callSubjects(request.name, request.arguments, workspace, dialect));
			if (!verdict) return null;
			const named = verdict.rules.map(rule => `"${rule.text}" (${rule.file})`).join(' and ');
			const rule = `the permission rule${verdict.rules.length > 1 ? 's' : ''} ${named}`;
			return {decision: verdict.decision, reason: verdict.decision === 'deny' ? `denied by ${rule}` : verdict.decision === 'ask' ? `${rule} asks first` : `allowed by ${rule}`};
		},
	};
}

/** Whether the workspace is trusted without asking anyone: --trust-project, an earlier answer, or an extension's ProjectTrust (decide-trust.ts). */
export async function trusted(start: PermissionStart): Promise<boolean> {
	return (await projectTrust(start)).trusted;
}

/** The trust decided without asking anyone; in the chat screen the person was asked before the rules are read (start-extensions.ts), and their answer is remembered. */
async function projectTrust(start: PermissionStart): Promise<TrustOutcome> {
	const {decideTrust} = await import('./decide-trust.js');
	const outcome = await decideTrust({trustProject: start.trustProject, canAsk: false}, {workspace: start.workspace, dirs: start.dirs, events: start.events});
	return 'trusted' in outcome ? outcome : {trusted: false};
}

/** How to make the project's allow rules count, as the extensions' warning says it for their code. */
function untrustedFix(trust: TrustOutcome): string {
	if (trust.byExtension)
		return `extension ${trust.byExtension.name} refused it (ProjectTrust${trust.byExtension.reason ? `: ${trust.byExtension.reason}` : ''}), which neither --trust-project nor an earlier yes overrides`;
	if (trust.refusedIn !== undefined) return `it was not trusted when asked; pass --trust-project to use them for this run, or delete ${trust.refusedIn} to be asked again`;
	return 'pass --trust-project to use them for this run';
}
