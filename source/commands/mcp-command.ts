import {join} from 'node:path';
import type {AnyFlags} from 'meow';
import {parseCommandLine} from '../command-line/parse-command-line.js';
import {checkedDirs} from '../core/config/checked-dirs.js';
import {errorMessage, exitCodes, UsageError} from '../core/errors.js';
import {nearestName} from '../core/nearest-name.js';
import {resolveWorkspace} from '../core/session/start-plugins.js';
import {helpOutput, mcpHelpText} from '../help.js';
import {writeErr, writeOut} from '../shared/output.js';
import {readFlags} from './mcp-flags.js';
import {list} from './mcp-list.js';

const scopeFlags = {
	cwd: {type: 'string', shortFlag: 'C'},
	global: {type: 'boolean', shortFlag: 'g', default: false},
	json: {type: 'boolean', default: false},
} satisfies AnyFlags;

const addFlags = {
	...scopeFlags,
	url: {type: 'string'},
	transport: {type: 'string'},
	header: {type: 'string', isMultiple: true, default: []},
	env: {type: 'string', isMultiple: true, default: []},
	timeout: {type: 'number'},
	sandbox: {type: 'boolean', default: false},
	force: {type: 'boolean', default: false},
} satisfies AnyFlags;

const subcommands = ['list', 'get', 'add', 'remove', 'login', 'logout'] as const;

/**
 * `i mcp list | get NAME | add NAME … | remove NAME` (docs/mcp.md). add and
 * remove edit `mcpServers` of the project's `.i/settings.json` (or, with
 * --global, `<config_dir>/settings.json`), keeping the file's other keys and
 * indentation; list and get start the servers a run here would start, wait
 * for each (its own timeout), say what each offers, and stop them.
 */
export async function runMcp(args: string[]): Promise<number> {
	const [word, ...rest] = args;
	if (word === undefined || word === '--help' || word === '-h' || rest.includes('--help') || rest.includes('-h')) {
		writeOut(helpOutput(mcpHelpText));
		return word === undefined ? exitCodes.usage : exitCodes.ok;
	}

	try {
		switch (word) {
			case 'list': {
				return await list(rest, undefined);
			}

			case 'get': {
				const {input} = parseCommandLine(rest, {flags: readFlags, takesInput: true});
				return await list(rest, oneName('i mcp get NAME', input));
			}

			case 'add': {
				return await add(rest);
			}

			case 'remove': {
				return await remove(rest);
			}

			case 'login': {
				return await login(rest);
			}

			case 'logout': {
				return await logout(rest);
			}

			default: {
				const guess = nearestName(word, subcommands);
				throw new UsageError(
					`unknown mcp command "${word}"${guess === undefined ? '' : ` (did you mean i mcp ${guess}?)`}: i mcp list, get NAME, add NAME, remove NAME, login NAME, logout NAME; see i mcp --help`,
				);
			}
		}
	} catch (error) {
		writeErr(`i: mcp${(subcommands as readonly string[]).includes(word) ? ` ${word}` : ''}: ${errorMessage(error)}\n`);
		return error instanceof UsageError ? exitCodes.usage : exitCodes.turnFailed;
	}
}

function oneName(usage: string, input: string[]): string {
	if (input.length === 1) return input[0]!;
	throw new UsageError(input.length === 0 ? `name the server: ${usage}` : `takes one server, not ${input.length} (${input.join(' ')}): ${usage}`);
}

function settingsPath(flags: {global: boolean; cwd?: string | undefined}): {path: string; workspace: string} {
	const workspace = resolveWorkspace(flags.cwd);
	return {path: flags.global ? join(checkedDirs().config_dir, 'settings.json') : join(workspace, '.i', 'settings.json'), workspace};
}

async function add(args: string[]): Promise<number> {
	// After `--` is the server's command line, taken as it is (its own flags are not ours).
	const dashes = args.indexOf('--');
	const own = dashes === -1 ? args : args.slice(0, dashes);
	const command = dashes === -1 ? [] : args.slice(dashes + 1);
	const {flags, input} = parseCommandLine(own, {flags: addFlags, takesInput: true});
	const usage = 'i mcp add NAME -- COMMAND ARGS…, or i mcp add NAME --url URL [--header "K: V"]';
	const name = oneName(usage, input);
	const entry: Record<string, unknown> = {};
	if (flags.url !== undefined) {
		if (command.length > 0) throw new UsageError(`give a command after -- or --url, not both: ${usage}`);
		if (flags.env.length > 0) throw new UsageError('--env is for a server i starts (a command after --); a remote server takes --header');
		if (flags.sandbox) throw new UsageError("--sandbox is for a server i starts (a command after --); a remote server runs no process of i's to sandbox");
		if (flags.transport !== undefined && flags.transport !== 'http' && flags.transport !== 'sse') throw new UsageError(`--transport is http or sse (got ${JSON.stringify(flags.transport)})`);
		entry.type = flags.transport ?? 'http';
		entry.url = flags.url;
		if (flags.header.length > 0) entry.headers = Object.fromEntries(flags.header.map(header => pair(header, ':', `--header "Authorization: Bearer \${TOKEN}"`)));
	} else {
		if (command.length === 0) throw new UsageError(`name the server's command after --, or its --url: ${usage}`);
		if (flags.header.length > 0) throw new UsageError('--header is for a remote server (--url); a command takes --env');
		if (flags.transport !== undefined) throw new UsageError('--transport is for a remote server (--url)');
		entry.command = command[0];
		if (command.length > 1) entry.args = command.slice(1);
		if (flags.env.length > 0) entry.env = Object.fromEntries(flags.env.map(variable => pair(variable, '=', '--env KEY=VALUE')));
		if (flags.sandbox) entry.sandbox = true;
	}

	if (flags.timeout !== undefined) entry.timeout = flags.timeout;
	const {path, workspace} = settingsPath(flags);
	const {addMcpServer} = await import('../core/mcp/mcp-settings-edit.js');
	const outcome = await addMcpServer(path, name, entry, {replace: flags.force, workspace});
	if (flags.json) writeOut(`${JSON.stringify({name, outcome, settings: path, entry})}\n`);
	else {
		const where = flags.global ? 'every workspace' : 'this project (it starts only in a trusted workspace)';
		writeOut(
			`${outcome} MCP server ${name} in ${path}, for ${where}; its tools are mcp__${name}__… (i mcp get ${name} starts it to check${flags.url === undefined ? '' : `; if it asks for an OAuth login, i mcp login ${name}`})\n`,
		);
	}

	return exitCodes.ok;
}

function pair(text: string, separator: string, example: string): [string, string] {
	const at = text.indexOf(separator);
	if (at <= 0) throw new UsageError(`${JSON.stringify(text)} is not NAME${separator}VALUE (${example})`);
	return [text.slice(0, at).trim(), text.slice(at + 1).trim()];
}

async function remove(args: string[]): Promise<number> {
	const {flags, input} = parseCommandLine(args, {flags: scopeFlags, takesInput: true});
	const name = oneName('i mcp remove NAME [--global]', input);
	const {path, workspace} = settingsPath(flags);
	const {removeMcpServer} = await import('../core/mcp/mcp-settings-edit.js');
	if (await removeMcpServer(path, name)) {
		writeOut(flags.json ? `${JSON.stringify({name, removed: true, settings: path})}\n` : `removed MCP server ${name} from ${path}\n`);
		return exitCodes.ok;
	}

	// Where it is, when it is elsewhere: .mcp.json is the project's own file, edited by hand.
	const {mcpConfigFiles, readServerEntries} = await import('../core/mcp/mcp-config.js');
	const elsewhere: string[] = [];
	for (const file of mcpConfigFiles(workspace, checkedDirs().config_dir)) {
		if (file.path !== path && (await readServerEntries(file.path).catch(() => undefined))?.[name] !== undefined) elsewhere.push(file.path);
	}

	const hint = elsewhere.length === 0 ? '' : `; it is in ${elsewhere.join(' and ')}${elsewhere.some(file => file.endsWith('settings.json')) ? ` (${flags.global ? 'without' : 'with'} --global)` : ''}`;
	throw new UsageError(`there is no MCP server "${name}" in ${path}${hint}`);
}

/** The remote server `name` a run here would use; a UsageError naming what is there otherwise. */
async function remoteServer(args: string[], usage: string) {
	const {flags, input} = parseCommandLine(args, {flags: readFlags, takesInput: true});
	const name = oneName(usage, input);
	const workspace = resolveWorkspace(flags.cwd);
	const dirs = checkedDirs();
	const [{readRunMcpConfig}, {untrustedWarning}] = await Promise.all([import('../core/mcp/start-mcp.js'), import('../core/mcp/mcp-config.js')]);
	const config = await readRunMcpConfig({workspace, dirs, trustProject: flags.trustProject, events: null});
	for (const message of config.warnings) writeErr(`i: mcp: ${message}\n`);
	if (config.untrusted) writeErr(`i: mcp: ${untrustedWarning(workspace, config.untrusted)}\n`);
	const server = config.servers.find(candidate => candidate.name === name);
	if (!server) {
		const names = config.servers.map(candidate => candidate.name);
		throw new UsageError(`there is no MCP server named "${name}" here${names.length > 0 ? ` (configured: ${names.join(', ')})` : ''}`);
	}

	if (server.transport === 'stdio') throw new UsageError(`MCP server ${name} is a program i starts (${server.command}); only a remote server (a "url") logs in`);
	return {server, dirs, json: flags.json};
}

async function login(args: string[]): Promise<number> {
	const {server, dirs, json} = await remoteServer(args, 'i mcp login NAME');
	const [{loginMcpServer}, {version}] = await Promise.all([import('../core/mcp/mcp-login.js'), import('../version.js')]);
	const controller = new AbortController();
	const interrupt = () => controller.abort(new Error('interrupted'));
	process.once('SIGINT', interrupt);
	try {
		const done = await loginMcpServer({config: server, configDir: dirs.config_dir, clientVersion: version(), say: line => writeOut(`${line}\n`), environment: process.env, signal: controller.signal});
		writeOut(json ? `${JSON.stringify({name: server.name, loggedIn: true, message: done})}\n` : `${done}\n`);
		return exitCodes.ok;
	} catch (error) {
		if (controller.signal.aborted) {
			writeErr(`i: mcp login: interrupted; MCP server ${server.name} is not logged in\n`);
			return exitCodes.interrupted;
		}

		// A broken mcp-auth.json is the person's to fix (exit 2); anything else is the login failing (exit 1).
		if (error instanceof UsageError) throw error;
		throw new Error(`the login of MCP server ${server.name} failed: ${errorMessage(error)}`);
	} finally {
		process.off('SIGINT', interrupt);
	}
}

async function logout(args: string[]): Promise<number> {
	const {flags, input} = parseCommandLine(args, {flags: readFlags, takesInput: true});
	const name = oneName('i mcp logout NAME', input);
	const {McpAuthFile} = await import('../core/mcp/mcp-auth-file.js');
	const file = McpAuthFile.in(checkedDirs().config_dir);
	// By name alone: a server removed from the settings can still be logged out of.
	const removed = await file.remove(name);
	if (flags.json) writeOut(`${JSON.stringify({name, loggedOut: removed, file: file.path})}\n`);
	else writeOut(removed ? `logged out of MCP server ${name}: its tokens were removed from ${file.path}\n` : `MCP server ${name} was not logged in (nothing for it in ${file.path})\n`);
	return exitCodes.ok;
}
