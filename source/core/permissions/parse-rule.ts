import {nearestName} from '../nearest-name.js';
import {nativeToolNames} from '../tools/native-tool-names.js';
import {compilePathPattern, type PathPlace} from './path-pattern.js';
import type {ShellDialect} from './shell-commands.js';
import {compileShellPattern, type ShellPattern} from './shell-pattern.js';

/** The three lists of `permissions`, strongest first: deny beats ask beats allow. */
export const ruleLists = ['deny', 'ask', 'allow'] as const;
export type RuleList = (typeof ruleLists)[number];

/** A rule is short; a longer one is a mistake (i's own bound, like every hand-written list's). */
export const MAX_RULE_CHARS = 1024;

/**
 * What a rule's tool name covers: `read` every tool that reads files, `edit`
 * every tool that changes them (so `deny: ["edit(.env)"]` also stops a
 * `write` of it); any other name itself.
 */
export const toolFamilies: Readonly<Record<string, readonly string[]>> = {
	read: ['read', 'view_image', 'glob', 'search'],
	edit: ['edit', 'write'],
};

/** The tools whose rules take a pattern, and what kind. */
const patternKinds: Readonly<Record<string, 'shell' | 'path'>> = {shell: 'shell', read: 'path', edit: 'path', write: 'path'};

/** `mcp__<server>__<tool>`: an MCP server's tools are known only once it runs. */
const MCP_NAME = /^mcp__.+__.+$/;
const TOOL_PART = /^[\w*-]+$/;

export interface PermissionRule {
	/** As written in the file. */
	text: string;
	list: RuleList;
	/** The settings file it comes from, for messages. */
	file: string;
	matchesTool(name: string): boolean;
	shell: ShellPattern | null;
	path: ((absolute: string) => boolean) | null;
}

/** What a rule is checked against: the tools there are, and how paths and commands are read. */
export interface RuleContext {
	/** Worker and extension tools' names (native and MCP names are always known). */
	toolNames: readonly string[];
	place: PathPlace;
	dialect: ShellDialect;
}

/** A rule that is malformed, names no tool, or can never match; the message says why. */
export class RuleError extends Error {
	override name = 'RuleError';
}

/** `TOOL` or `TOOL(PATTERN)` (docs/approvals.md, "Permission rules"). */
export function parseRule(text: string, list: RuleList, file: string, context: RuleContext): PermissionRule {
	if (text.length > MAX_RULE_CHARS) throw new RuleError(`a rule is at most ${MAX_RULE_CHARS} characters`);
	const open = text.indexOf('(');
	if (open !== -1 && !text.endsWith(')')) throw new RuleError('a pattern ends with ")": write TOOL(PATTERN)');
	const tool = (open === -1 ? text : text.slice(0, open)).trim();
	const pattern = open === -1 ? undefined : text.slice(open + 1, -1);
	if (tool === '') throw new RuleError('it names no tool: write TOOL or TOOL(PATTERN)');
	if (!TOOL_PART.test(tool)) throw new RuleError(`"${tool}" is not a tool name: write TOOL or TOOL(PATTERN)`);
	const rule: PermissionRule = {text, list, file, matchesTool: toolMatcher(tool, context), shell: null, path: null};
	if (pattern === undefined) return rule;
	const kind = patternKinds[tool];
	if (kind === undefined) throw new RuleError(`${tool} takes no pattern; only shell, read, edit and write do (write "${tool}" alone)`);
	if (pattern.trim() === '') throw new RuleError(`the pattern is empty; write "${tool}" alone for every ${tool} call`);
	try {
		if (kind === 'shell') rule.shell = compileShellPattern(pattern, context.dialect);
		else rule.path = compilePathPattern(pattern.trim(), context.place);
	} catch (error) {
		throw new RuleError((error as Error).message);
	}

	return rule;
}

function toolMatcher(tool: string, context: RuleContext): (name: string) => boolean {
	const known = [...new Set([...nativeToolNames, ...context.toolNames])];
	if (tool.includes('*')) {
		// TOOL_PART leaves only letters, digits, `_`, `-` and `*`: nothing else to escape.
		const pattern = new RegExp(`^${tool.replaceAll('*', '.*')}$`);
		// An MCP server's tools are named when it runs: `mcp__github__*` is known by its form.
		if (!known.some(name => pattern.test(name)) && !tool.startsWith('mcp__')) throw new RuleError(`"${tool}" matches no tool; tools are ${known.join(', ')} and MCP tools mcp__SERVER__TOOL`);
		return name => pattern.test(name);
	}

	if (!known.includes(tool) && !MCP_NAME.test(tool)) {
		const near = nearestName(tool, known);
		throw new RuleError(`unknown tool "${tool}"${near ? ` (did you mean ${near}?)` : ''}; tools are ${known.join(', ')} and MCP tools mcp__SERVER__TOOL`);
	}

	const family = toolFamilies[tool] ?? [tool];
	return name => family.includes(name);
}
