import path from 'node:path';
import {resolvePath} from '../tools/paths.js';
import {callSubjects} from './call-subjects.js';
import {decideByRules} from './decide.js';
import {parseRule, toolFamilies, type RuleContext} from './parse-rule.js';
import {splitShellCommand} from './shell-commands.js';
import {ASSIGNMENT, WRAPPERS} from './shell-variants.js';

/** A word written into a rule as it is: anything else would need quoting, and then no rule is offered. */
const PLAIN_WORD = /^[\w@%+=:,./-]+$/;
/** A second word that names a subcommand (`test` of `npm test`, `status` of `git status`), not an option or a path. */
const SUBCOMMAND = /^[A-Za-z][\w-]*$/;
/** Characters a path pattern reads as glob syntax: a folder holding one gets no rule. */
const GLOB_SYNTAX = /[*?[\]{}()!+@|\\]/;
const TOOL_NAME = /^[\w-]+$/;

/**
 * The narrowest rule worth remembering for a call ("always, for this
 * project"): for `shell`, the one simple command's first word, and its
 * second when that names a subcommand, with ` *` when more words follow
 * (`shell(npm test *)`); for `edit` and `write`, the files' one folder in
 * the workspace (`edit(src/**)`), or the file itself at the top level; for
 * any other tool but the reading ones, its name. Null when no such rule
 * fits: a compound or not understood command line, a leading assignment or
 * wrapper (`sudo *` would allow anything), a path outside the workspace or
 * in folders apart. A rule is offered only when it parses and allows this
 * very call, so the next one like it is not asked.
 */
export async function narrowestRule(name: string, args: Record<string, unknown>, context: RuleContext): Promise<string | null> {
	const rule = await candidate(name, args, context);
	if (rule === null) return null;
	try {
		const parsed = parseRule(rule, 'allow', 'the question', {...context, toolNames: [...context.toolNames, name]});
		const verdict = await decideByRules({deny: [], ask: [], allow: [parsed]}, name, async () => callSubjects(name, args, context.place.workspace, context.dialect));
		return verdict?.decision === 'allow' ? rule : null;
	} catch {
		return null;
	}
}

async function candidate(name: string, args: Record<string, unknown>, context: RuleContext): Promise<string | null> {
	if (name === 'shell') return typeof args.command === 'string' ? shellRule(args.command, context) : null;
	if (name === 'edit' || name === 'write') return pathRule(name, args, context.place.workspace);
	// A reading tool asks only for a path outside the workspace: no rule "for this project" fits it.
	if (toolFamilies.read!.includes(name) || !TOOL_NAME.test(name)) return null;
	return name;
}

function shellRule(command: string, context: RuleContext): string | null {
	const {commands} = splitShellCommand(command, context.dialect);
	if (commands?.length !== 1) return null;
	const words = commands[0]!;
	const [first, second] = words;
	if (first === undefined || !PLAIN_WORD.test(first) || ASSIGNMENT.test(first) || WRAPPERS.has(first)) return null;
	const kept = second !== undefined && SUBCOMMAND.test(second) ? [first, second] : [first];
	return `shell(${kept.join(' ')}${words.length > kept.length ? ' *' : ''})`;
}

async function pathRule(name: string, args: Record<string, unknown>, workspace: string): Promise<string | null> {
	const inputs = name === 'edit' ? [args.path] : Array.isArray(args.files) ? args.files.map(file => (file as {path?: unknown} | null)?.path) : [];
	if (inputs.length === 0 || !inputs.every(input => typeof input === 'string')) return null;
	const targets = await Promise.all((inputs as string[]).map(async input => resolvePath(workspace, input)));
	if (!targets.every(target => target.inside)) return null;
	const relatives = targets.map(target => path.relative(workspace, target.canonical).split(path.sep).join('/'));
	const folders = new Set(relatives.map(relative => path.posix.dirname(relative)));
	if (folders.size !== 1) return null;
	const [folder] = folders as Set<string>;
	const pattern = folder === '.' ? (relatives.length === 1 ? relatives[0]! : null) : `${folder}/**`;
	if (pattern === null || pattern === '' || GLOB_SYNTAX.test(pattern.replace(/\/\*\*$/, ''))) return null;
	return `${name}(${pattern})`;
}
