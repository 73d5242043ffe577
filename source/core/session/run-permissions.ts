import {realpath} from 'node:fs/promises';
import {homedir} from 'node:os';
import type {ApprovalRequest, PermissionCheck} from '../agent/approval-gate.js';
import {readRunSettings} from '../extensions/settings-file.js';
import type {EventBus} from '../extensions/event-bus.js';
import type {RunSettings} from '../extensions/settings-file.js';
import type {PlatformDirs} from '../config/dirs.js';
import type {Tool} from '../tools/types.js';
import type {RuleContext, RuleList} from '../permissions/parse-rule.js';
import {readPermissions, personalKey, trusted, type ListedRule, type PermissionStart, type ReadPermissions} from './start-permissions.js';

/** Which settings file a rule is written to: the project's own (not committed), the project's committed one, or the person's global one. */
export type RuleFileChoice = 'local' | 'project' | 'global';

/** What a change of the rules did, and what reading them again said. */
export interface RuleChange {
	/** The file written, or that would have been. */
	file: string;
	/** False when there was nothing to do (the rule was there already, or was not there to remove). */
	changed: boolean;
	/** For a removal, the lists it was removed from. */
	lists: RuleList[];
	warnings: string[];
}

/** What reading the rules again found. */
export interface RulesReload {
	/** What reading them said: a rule that cannot be used, an untrusted workspace. */
	warnings: string[];
	/** Whether the rules, their problems, or whether each counts differ from those read before. */
	changed: boolean;
}

/**
 * The run's permission rules, held in one place: the approval gate asks
 * `check`, which always reads the rules as last read, so a change made with
 * /permissions or "always, for this project" counts from the next call on.
 */
export class RunPermissions {
	/** Replaced when a reload brings the tools' names as they are now (/reload). */
	#start: PermissionStart;
	#read: ReadPermissions;
	/** The rules the person added in this run (personalKey). */
	readonly #personal = new Set<string>();

	private constructor(start: PermissionStart, read: ReadPermissions) {
		this.#start = start;
		this.#read = read;
	}

	static async start(start: PermissionStart): Promise<RunPermissions> {
		return new RunPermissions(start, await readPermissions(start));
	}

	/** The gate's check (createApprovalGate's `rules`). */
	readonly check: PermissionCheck = async request => (this.#read.check ? this.#read.check(request) : null);

	/** Every rule of the settings files, in the order read: global, project, local; deny, ask, allow in each. */
	get rules(): readonly ListedRule[] {
		return this.#read.rules;
	}

	/** The rules that cannot be used, as last read. */
	get problems(): readonly string[] {
		return this.#read.problems;
	}

	get workspace(): string {
		return this.#start.workspace;
	}

	async fileOf(where: RuleFileChoice): Promise<string> {
		const files = await import('../permissions/rule-files.js');
		if (where === 'global') return files.globalSettingsPath(this.#start.dirs.config_dir);
		return where === 'project' ? files.projectSettingsPath(this.#start.workspace) : files.localSettingsPath(this.#start.workspace);
	}

	/**
	 * Reads the settings files again; `toolNames`, when given, are the tools
	 * as they are now (after /reload loaded the extensions again), which a
	 * rule may name. A file that cannot be read throws, and the rules read
	 * before stay.
	 */
	async reload(change: {toolNames?: readonly string[]} = {}): Promise<RulesReload> {
		const warnings: string[] = [];
		const start = change.toolNames ? {...this.#start, toolNames: change.toolNames} : this.#start;
		const settings = await readRunSettings(start.workspace, start.dirs.config_dir);
		const before = this.#read;
		this.#read = await readPermissions({...start, settings, warn: message => warnings.push(message)}, this.#personal);
		this.#start = start;
		return {warnings, changed: fingerprint(before) !== fingerprint(this.#read)};
	}

	/** Writes `text` to a list of the file (edit-rules.ts checks it first) and reads the rules again; it counts for this run even where the workspace is not trusted. */
	async add(list: RuleList, text: string, where: RuleFileChoice): Promise<RuleChange> {
		const [file, context, {addPermissionRule}] = await Promise.all([this.fileOf(where), this.#context(), import('../permissions/edit-rules.js')]);
		const changed = await addPermissionRule(file, list, text, {...context, workspace: this.#start.workspace});
		this.#personal.add(personalKey(file, list, text));
		const {warnings} = await this.reload();
		// A project's allow rule counts in later runs only in a trusted workspace: said now, not found out then.
		if (list === 'allow' && where !== 'global' && !(await trusted(this.#start))) {
			warnings.push(`the workspace is not trusted: ${text} counts for this run, and in later runs only once it is trusted (--trust-project, or yes when asked)`);
		}

		return {file, changed, lists: [list], warnings};
	}

	/** Removes `text` (as written) from each list of the file that holds it, and reads the rules again. */
	async remove(text: string, where: RuleFileChoice): Promise<RuleChange> {
		const [file, {removePermissionRule}, {ruleLists}] = await Promise.all([this.fileOf(where), import('../permissions/edit-rules.js'), import('../permissions/parse-rule.js')]);
		const lists: RuleList[] = [];
		for (const list of ruleLists) {
			if (await removePermissionRule(file, list, text)) lists.push(list);
		}

		return {file, changed: lists.length > 0, lists, warnings: lists.length > 0 ? (await this.reload()).warnings : []};
	}

	/** The narrowest rule that would allow this call and the next like it (narrowest-rule.ts); null when none fits, or an ask rule would still ask. */
	async ruleFor(request: ApprovalRequest): Promise<string | null> {
		// Ask beats allow: a rule written now would not spare the next question.
		if ((await this.check(request))?.decision === 'ask') return null;
		const [context, {narrowestRule}] = await Promise.all([this.#context(), import('../permissions/narrowest-rule.js')]);
		return narrowestRule(request.name, request.arguments, context);
	}

	async #context(): Promise<RuleContext> {
		const [{platformPlace}, {platformDialect}] = await Promise.all([import('../permissions/path-pattern.js'), import('../permissions/shell-commands.js')]);
		return {toolNames: this.#start.toolNames, place: platformPlace(await realpath(this.#start.workspace), homedir()), dialect: platformDialect()};
	}
}

/** What a reading of the rules holds that a change would show: each rule with its file and whether it counts, and the problems. */
function fingerprint(read: ReadPermissions): string {
	return JSON.stringify([read.rules.map(rule => [rule.list, rule.text, rule.file, rule.counts, rule.why]), read.problems]);
}

/** The run's rules from set-up's parts: the start's options, its place, the extensions it started and the core's tools. */
export async function permissionsOfStart(
	options: {trustProject?: boolean | undefined; permissionProblems?: 'fail' | 'notice' | undefined},
	place: {workspace: string; dirs: PlatformDirs; warn(message: string): void},
	started: {settings: RunSettings; events: EventBus | null; tools: readonly Tool[]},
	coreTools: readonly Tool[],
): Promise<RunPermissions> {
	const toolNames = [...coreTools, ...started.tools].map(tool => tool.name);
	return RunPermissions.start({...place, settings: started.settings, events: started.events, toolNames, trustProject: options.trustProject, problems: options.permissionProblems ?? 'fail'});
}
