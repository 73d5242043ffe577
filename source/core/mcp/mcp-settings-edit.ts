import {UsageError} from '../errors.js';
import {updateSettings} from '../extensions/settings-packages.js';
import {checkServerEntry, MAX_MCP_SERVERS} from './mcp-config.js';

/** Any `${VAR}` stands for something while an entry is checked for `i mcp add`: the variable is read when the server starts, not now. */
const anyVariable = new Proxy({}, {get: () => 'set'}) as NodeJS.ProcessEnv;

/**
 * Adds (or replaces, with `replace`) the server `name` in `mcpServers` of a
 * settings file, keeping its other keys and its indentation (under its
 * lock, as `i install` writes). The entry is checked as a run checks it
 * before anything is written.
 */
export async function addMcpServer(path: string, name: string, entry: Record<string, unknown>, options: {replace: boolean; workspace: string}): Promise<'added' | 'replaced'> {
	checkServerEntry(name, entry, {file: path, source: 'project-settings', workspace: options.workspace, environment: anyVariable});
	let outcome: 'added' | 'replaced' = 'added';
	await updateSettings(path, data => {
		const servers = serversAt(data, path);
		if (name in servers) {
			if (!options.replace) throw new UsageError(`${path} has an MCP server "${name}" already: i mcp remove ${name} first, or add it with --force to replace it`);
			outcome = 'replaced';
		} else if (Object.keys(servers).length >= MAX_MCP_SERVERS) throw new UsageError(`${path}: "mcpServers" lists ${MAX_MCP_SERVERS} servers, the most it may; remove one first`);
		data.mcpServers = {...servers, [name]: entry};
		return true;
	});
	return outcome;
}

/** Removes the server `name` from `mcpServers` of a settings file; false when it is not there. */
export async function removeMcpServer(path: string, name: string): Promise<boolean> {
	let removed = false;
	await updateSettings(path, data => {
		const servers = serversAt(data, path);
		if (!(name in servers)) return false;
		const {[name]: _gone, ...rest} = servers;
		data.mcpServers = rest;
		removed = true;
		return true;
	});
	return removed;
}

function serversAt(data: Record<string, unknown>, path: string): Record<string, unknown> {
	const servers = data.mcpServers ?? {};
	if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) throw new UsageError(`settings ${path}: "mcpServers" must be an object of servers by name; fix it by hand first`);
	return servers as Record<string, unknown>;
}
