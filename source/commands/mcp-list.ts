import {parseCommandLine} from '../command-line/parse-command-line.js';
import {checkedDirs} from '../core/config/checked-dirs.js';
import {exitCodes, UsageError} from '../core/errors.js';
import type {McpServerStatus} from '../core/mcp/mcp-servers.js';
import {resolveWorkspace} from '../core/session/start-plugins.js';
import {writeErr, writeOut} from '../shared/output.js';
import {readFlags} from './mcp-flags.js';

/** A server `i mcp list` shows: one a run starts, a disabled one, or one of the project's that a run skips for trust. */
type ListedServer = Omit<McpServerStatus, 'state'> & {state: McpServerStatus['state'] | 'untrusted'};

/**
 * `i mcp list` and `i mcp get NAME`: start the servers a run here would
 * start, wait until each is ready or failed, and show them; the project's
 * servers a run skips because the workspace is not trusted are listed as
 * not started, with how to trust it. Exit 1 when any failed or was skipped.
 */
export async function list(args: string[], only: string | undefined): Promise<number> {
	const {flags, input} = parseCommandLine(args, {flags: readFlags, takesInput: only !== undefined});
	if (only === undefined && input.length > 0) throw new UsageError(`i mcp list takes no name (i mcp get ${input[0]})`);
	const workspace = resolveWorkspace(flags.cwd);
	const dirs = checkedDirs();
	const [{readRunMcpConfig, serversOf}, {version}] = await Promise.all([import('../core/mcp/start-mcp.js'), import('../version.js')]);
	const config = await readRunMcpConfig({workspace, dirs, trustProject: flags.trustProject, events: null});
	const warnings = [...config.warnings];
	const start = serversOf(config, {workspace, dirs, trustProject: flags.trustProject, events: null, takenToolNames: new Map(), clientVersion: version(), report: message => warnings.push(message)});
	const servers = start ? await start() : null;
	try {
		await servers?.start();
		const untrusted: ListedServer[] = (config.untrusted?.servers ?? []).map(({name, file}) => ({
			name,
			state: 'untrusted',
			transport: null,
			file,
			describe: '',
			tools: [],
			prompts: [],
			resources: 0,
			lastError: `not started: the workspace ${workspace} is not trusted; ${config.untrusted!.fix}`,
		}));
		const all: ListedServer[] = [...(servers?.status() ?? []), ...untrusted];
		if (only !== undefined && !all.some(status => status.name === only)) {
			for (const message of warnings) writeErr(`i: mcp: ${message}\n`);
			throw new UsageError(`there is no MCP server named "${only}" here${all.length > 0 ? ` (configured: ${all.map(status => status.name).join(', ')})` : ''}`);
		}

		const statuses = all.filter(status => only === undefined || status.name === only);
		const code = statuses.some(status => status.state === 'failed' || status.state === 'untrusted') ? exitCodes.turnFailed : exitCodes.ok;
		if (flags.json) {
			writeOut(`${JSON.stringify({servers: statuses, warnings})}\n`);
			return code;
		}

		// The failures are in the table; what else was said (shadowed names) comes first.
		for (const message of warnings.filter(message => !statuses.some(status => status.lastError !== undefined && message.startsWith(`MCP server ${status.name} `)))) writeErr(`i: mcp: ${message}\n`);
		if (statuses.length === 0) {
			writeOut('no MCP servers are configured here (i mcp add NAME -- COMMAND ARGS…, or a project .mcp.json)\n');
			return exitCodes.ok;
		}

		writeOut(`${statuses.map(status => describe(status, only !== undefined)).join('\n')}\n`);
		return code;
	} finally {
		await servers?.close();
	}
}

function describe(status: ListedServer, detailed: boolean): string {
	const offers =
		status.state === 'ready'
			? `${status.tools.length} tool${status.tools.length === 1 ? '' : 's'}, ${status.prompts.length} prompt${status.prompts.length === 1 ? '' : 's'}, ${status.resources} resource${status.resources === 1 ? '' : 's'}`
			: '';
	const state = status.state === 'untrusted' ? 'not started' : status.state;
	const head = `${status.name}  ${state}${status.transport ? `  ${status.transport}` : ''}${offers ? `  ${offers}` : ''}  ${status.file}`;
	const error = status.lastError ? `\n    ${status.lastError}` : '';
	const detail = detailed
		? `\n    ${status.describe}${status.tools.length > 0 ? `\n    tools: ${status.tools.join(', ')}` : ''}${status.prompts.length > 0 ? `\n    prompts: ${status.prompts.join(', ')}` : ''}`
		: '';
	return `${head}${error}${status.state === 'untrusted' ? '' : detail}`;
}
