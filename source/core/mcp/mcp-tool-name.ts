import {createHash} from 'node:crypto';
import {MAX_TOOL_NAME_LENGTH} from '../extensions/check-tool.js';

/** What a server's own name is made of where the tool-name rule (spec/platform.md §5: `A-Z a-z 0-9 _ -`) does not allow it. */
const notAllowed = /[^A-Za-z0-9_-]/g;
/** Characters of a hash that keep two long names apart once cut to the limit. */
const HASH_CHARS = 8;

/**
 * `mcp__<server>__<tool>` under the tool-name rule: other characters become
 * `_`, and a name over 64 characters is cut and ends in a hash of the
 * server's tool name, so two long names that share their start stay apart.
 */
export function mcpToolName(server: string, tool: string): string {
	const name = `mcp__${server.replaceAll(notAllowed, '_')}__${tool.replaceAll(notAllowed, '_')}`;
	if (name.length <= MAX_TOOL_NAME_LENGTH) return name;
	const hash = createHash('sha256').update(tool).digest('hex').slice(0, HASH_CHARS);
	return `${name.slice(0, MAX_TOOL_NAME_LENGTH - HASH_CHARS - 1)}_${hash}`;
}

/** `/mcp__<server>__<prompt>`: the same rule, so a prompt's command is typed like its tools are named. */
export const mcpPromptCommand = mcpToolName;
