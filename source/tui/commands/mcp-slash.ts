import type {McpHandle} from '../../core/mcp/mcp-handle.js';
import type {McpServerStatus} from '../../core/mcp/mcp-servers.js';
import {mcpPromptCommand} from '../../core/mcp/mcp-tool-name.js';

export interface McpNotice {
	level: 'info' | 'warning';
	text: string;
}

/**
 * `/mcp`: each server's state, transport, tools and last error; `/mcp
 * reconnect NAME` kills the server's group and starts it again, settling
 * once it is ready or failed; `/mcp login NAME` runs a remote server's
 * OAuth login (`say` shows the address to open while it waits) and starts
 * it again; `/mcp logout NAME` forgets its tokens. Null: words it does
 * not know (the command says its usage).
 */
export async function mcpSlash(mcp: McpHandle, args: string, say: (text: string) => void = () => {}): Promise<McpNotice | null> {
	const words = args.split(/\s+/).filter(word => word !== '');
	const servers = await mcp.ready;
	if (words.length === 0) {
		if (!servers) return {level: 'info', text: 'no MCP servers are configured (i mcp add NAME -- COMMAND ARGS…, or a project .mcp.json; i mcp --help)'};
		return {level: 'info', text: servers.status().map(describeStatus).join('\n')};
	}

	if (words[0] === 'reconnect' && words.length === 2) {
		if (!servers) return {level: 'warning', text: 'no MCP servers are configured'};
		const result = await servers.reconnect(words[1]!);
		return {level: result.ok ? 'info' : 'warning', text: result.message};
	}

	if ((words[0] === 'login' || words[0] === 'logout') && words.length === 2) {
		if (!servers) return {level: 'warning', text: 'no MCP servers are configured'};
		const result = words[0] === 'login' ? await servers.login(words[1]!, say) : await servers.logout(words[1]!);
		return {level: result.ok ? 'info' : 'warning', text: result.message};
	}

	return null;
}

function describeStatus(status: McpServerStatus): string {
	const head = `${status.name}: ${status.state}${status.transport ? ` (${status.transport})` : ''} · ${status.file}`;
	const lines = [head];
	if (status.state === 'ready') {
		lines.push(`  ${status.tools.length} tool${status.tools.length === 1 ? '' : 's'}${status.tools.length > 0 ? `: ${status.tools.join(', ')}` : ''}`);
		if (status.prompts.length > 0) lines.push(`  prompts: ${status.prompts.map(prompt => `/${mcpPromptCommand(status.name, prompt)}`).join(', ')}`);
		if (status.resources > 0) lines.push(`  ${status.resources} resource${status.resources === 1 ? '' : 's'} (attach one with @${status.name}:URI)`);
	}

	if (status.state === 'needs login') lines.push(`  /mcp login ${status.name} (or i mcp login ${status.name}) logs in`);
	else if (status.lastError) lines.push(`  last error: ${status.lastError}`);
	return lines.join('\n');
}
