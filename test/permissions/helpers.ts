import {mkdir, mkdtemp, realpath, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {TestContext} from 'node:test';
import {callSubjects} from '../../source/core/permissions/call-subjects.js';
import {decideByRules, type RuleVerdict} from '../../source/core/permissions/decide.js';
import {compileRules} from '../../source/core/permissions/load-permissions.js';
import type {RuleFile} from '../../source/core/permissions/rule-files.js';
import type {RuleContext} from '../../source/core/permissions/parse-rule.js';

/** A canonical workspace and a home folder beside it, removed after the test. */
export async function place(t: TestContext): Promise<{root: string; workspace: string; home: string}> {
	const root = await realpath(await mkdtemp(join(tmpdir(), 'i-permissions-')));
	t.after(async () => rm(root, {recursive: true, force: true}));
	const workspace = join(root, 'workspace');
	const home = join(root, 'home');
	await Promise.all([mkdir(workspace), mkdir(home)]);
	return {root, workspace, home};
}

/** The context rules are read in: /bin/sh, POSIX paths, case kept, one extension tool. */
export function context(workspace: string, home: string): RuleContext {
	return {toolNames: ['todo_add'], place: {workspace, home, windows: false, nocase: false}, dialect: 'sh'};
}

/** The rules of one global settings file; any problem fails the test. */
export function rulesOf(lists: Partial<RuleFile['lists']>, ruleContext: RuleContext) {
	const {rules, problems} = compileRules([{source: 'global', path: '/config/settings.json', lists: {allow: [], ask: [], deny: [], ...lists}}], ruleContext);
	if (problems.length > 0) throw new Error(problems.join('\n'));
	return {deny: rules.filter(rule => rule.list === 'deny'), ask: rules.filter(rule => rule.list === 'ask'), allow: rules.filter(rule => rule.list === 'allow')};
}

/** What the rules decide about one call: `allow`, `ask`, `deny`, or null when none speaks; with the deciding rules' texts. */
export async function verdictOf(rules: ReturnType<typeof rulesOf>, ruleContext: RuleContext, name: string, args: Record<string, unknown>): Promise<string | null> {
	const verdict: RuleVerdict | null = await decideByRules(rules, name, async () => callSubjects(name, args, ruleContext.place.workspace, ruleContext.dialect));
	return verdict === null ? null : `${verdict.decision} ${verdict.rules.map(rule => rule.text).join(' + ')}`;
}
