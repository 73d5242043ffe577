import type {CallSubjects} from './call-subjects.js';
import type {PermissionRule, RuleList} from './parse-rule.js';
import {matchShellPattern} from './shell-pattern.js';

/** The rules of a run, by list. */
export type PermissionRules = Readonly<Record<RuleList, readonly PermissionRule[]>>;

/** What the rules say about a call, and which rules said it. */
export interface RuleVerdict {
	decision: RuleList;
	rules: readonly PermissionRule[];
}

/**
 * Deny beats ask beats allow, whichever files the rules come from. A deny
 * or ask rule holds when it touches any part of the call (one command of
 * several, one path of several, the path as named or as resolved); an allow
 * holds only when allow rules cover every part: each simple command as
 * written, run inside the workspace, and each path both as named and as
 * resolved. `subjects` is read only when a rule with a pattern names the tool.
 * Null when no rule speaks: the call goes on as it would without rules.
 */
export async function decideByRules(rules: PermissionRules, name: string, subjects: () => Promise<CallSubjects>): Promise<RuleVerdict | null> {
	let read: CallSubjects | undefined;
	const subjectsOnce = async () => (read ??= await subjects());
	for (const list of ['deny', 'ask'] as const) {
		for (const rule of rules[list]) {
			if (rule.matchesTool(name) && (isBare(rule) || touches(rule, await subjectsOnce()))) return {decision: list, rules: [rule]};
		}
	}

	const allows = rules.allow.filter(rule => rule.matchesTool(name));
	const bare = allows.find(rule => isBare(rule));
	if (bare) return {decision: 'allow', rules: [bare]};
	if (allows.length === 0) return null;
	const covering = covers(allows, await subjectsOnce());
	return covering ? {decision: 'allow', rules: covering} : null;
}

function isBare(rule: PermissionRule): boolean {
	return rule.shell === null && rule.path === null;
}

function touches(rule: PermissionRule, subjects: CallSubjects): boolean {
	if (subjects.kind === 'shell' && rule.shell) return subjects.judged.some(words => matchShellPattern(rule.shell!, words));
	if (subjects.kind === 'paths' && rule.path) return subjects.paths.some(target => rule.path!(target.absolute) || rule.path!(target.canonical));
	return false;
}

/** The allow rules that together cover every part of the call, or null when some part is left. */
function covers(allows: readonly PermissionRule[], subjects: CallSubjects): PermissionRule[] | null {
	const used = new Set<PermissionRule>();
	const coveredBy = (test: (rule: PermissionRule) => boolean) => {
		const rule = allows.find(candidate => test(candidate));
		if (rule) used.add(rule);
		return rule !== undefined;
	};

	let all = false;
	if (subjects.kind === 'shell') {
		const {commands} = subjects;
		all = commands !== null && commands.length > 0 && subjects.cwdInside && commands.every(words => coveredBy(rule => rule.shell !== null && matchShellPattern(rule.shell, words)));
	} else if (subjects.kind === 'paths') {
		const {paths} = subjects;
		all = paths.length > 0 && paths.every(target => [target.absolute, target.canonical].every(form => coveredBy(rule => rule.path?.(form) === true)));
	}

	return all ? [...used] : null;
}
