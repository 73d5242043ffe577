import {realpathSync} from 'node:fs';
import {realpath} from 'node:fs/promises';
import {homedir, tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {UsageError} from '../errors.js';
import {bwrapArgv} from '../sandbox/bwrap-argv.js';
import {parseDomainEntry} from '../sandbox/domain-match.js';
import {probeBwrap, sandboxPolicy} from '../sandbox/sandbox-policy.js';
import {proxyFolder, startDomainProxy} from '../sandbox/domain-proxy.js';
import {throughProxy} from '../sandbox/proxy-bridge.js';

/** A stdio server's sandbox, as its entry's `"sandbox"` asks for it (docs/mcp.md, "Sandbox"). */
export interface McpSandbox {
	/** Folders it may write besides the temporary folder: its `cwd` when the entry names one, then `allowWrite`; canonical, existing. */
	writable: string[];
	/** Hosts it may reach through its own domain proxy; none: no network. */
	allowedDomains: string[];
}

/** `"sandbox"` as the schema let it through: on, off, or on with the server's own folders and domains. */
export type SandboxEntry = boolean | {allowWrite?: string[] | undefined; allowedDomains?: string[] | undefined} | undefined;

/**
 * The sandbox an entry asks for, its paths resolved as its `cwd` is (from
 * the workspace; `~/` from the home folder) and found on disk now; null
 * when it asks for none. A path that does not exist or a malformed domain
 * is a UsageError naming `where` (the file and the server) and the field.
 */
export function checkSandboxEntry(sandbox: SandboxEntry, cwd: string | undefined, place: {where: string; workspace: string}): McpSandbox | null {
	if (sandbox === undefined || sandbox === false) return null;
	const {allowWrite = [], allowedDomains = []} = sandbox === true ? {} : sandbox;
	// Only a cwd the entry names is writable: a server started in the workspace by default gets no write there.
	const writable = cwd === undefined ? [] : [existingFolder(resolve(place.workspace, cwd), `${place.where}: field "cwd"`)];
	for (const [index, path] of allowWrite.entries()) writable.push(existingFolder(resolvePath(path, place.workspace), `${place.where}: field "sandbox.allowWrite[${index}]"`));
	for (const [index, domain] of allowedDomains.entries()) {
		const problem = parseDomainEntry(domain);
		if (typeof problem === 'string') throw new UsageError(`${place.where}: field "sandbox.allowedDomains[${index}]": ${JSON.stringify(domain)} ${problem}`);
	}

	return {writable: [...new Set(writable)], allowedDomains: allowedDomains.map(domain => domain.toLowerCase())};
}

/**
 * bubblewrap's command line around a server's, with the server's policy and,
 * when it lists domains, a domain proxy of its own, which `release` stops
 * with the server. Throws `its sandbox cannot start: WHY` where bubblewrap
 * cannot, so the server never starts unsandboxed.
 */
export async function sandboxedCommand(
	server: {command: string; args: readonly string[]; cwd: string; file: string; sandbox: McpSandbox},
	configDir: string,
): Promise<{command: string; args: string[]; release?: () => Promise<void>}> {
	const probe = await probeBwrap();
	if (!probe.ok) throw new Error(`its sandbox cannot start: ${probe.why} (install bubblewrap, or take "sandbox" out of its entry in ${server.file} to run it unsandboxed)`);
	const writable = [await realpath(tmpdir()), ...server.sandbox.writable];
	const cwd = await realpath(server.cwd).catch(() => server.cwd);
	// What the entry gave the server (its folder, allowWrite) is never hidden from it, even under ~/.aws.
	const policy = await sandboxPolicy({writable, configDir, keepVisible: [cwd, ...server.sandbox.writable]});
	const program = [server.command, ...server.args];
	if (server.sandbox.allowedDomains.length === 0) return {command: probe.bwrap, args: [...bwrapArgv(policy, {disableUserns: probe.disableUserns}), '--', ...program]};
	const proxy = await startDomainProxy({allowedDomains: server.sandbox.allowedDomains, folder: proxyFolder()});
	const argv = bwrapArgv({...policy, socket: proxy.socketPath}, {disableUserns: probe.disableUserns});
	return {command: probe.bwrap, args: [...argv, '--', ...throughProxy(proxy.socketPath, program)], release: async () => proxy.close()};
}

function resolvePath(path: string, workspace: string): string {
	return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : resolve(workspace, path);
}

function existingFolder(path: string, field: string): string {
	try {
		return realpathSync(path);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		throw new UsageError(`${field}: ${path} ${code === 'ENOENT' ? 'does not exist (a sandboxed server may write only in folders that exist)' : `cannot be used (${code ?? (error as Error).message})`}`);
	}
}
