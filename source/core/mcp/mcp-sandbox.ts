import {realpath} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {resolve} from 'node:path';
import {checkSandboxEntry, writableFolder, type SandboxEntry, type SandboxGrant} from '../sandbox/sandbox-entry.js';
import {probeBwrap, sandboxPolicy} from '../sandbox/sandbox-policy.js';
import {proxyFolder, startDomainProxy} from '../sandbox/domain-proxy.js';
import {sandboxCommand} from '../sandbox/sandbox-command.js';

/** A stdio server's sandbox, as its entry's `"sandbox"` asks for it (docs/mcp.md, "Sandbox"). */
export type McpSandbox = SandboxGrant;

/**
 * The sandbox an entry asks for, null when none: the folders it may write
 * are its `cwd` when the entry names one, then `allowWrite`, both resolved
 * from the workspace (`~/` from the home folder) and found on disk now. A
 * path that does not exist or a malformed domain is a UsageError naming
 * `where` (the file and the server) and the field.
 */
export function checkMcpSandbox(sandbox: SandboxEntry, cwd: string | undefined, place: {where: string; workspace: string}): McpSandbox | null {
	const grant = checkSandboxEntry(sandbox, {base: place.workspace, where: place.where});
	// Only a cwd the entry names is writable: a server started in the workspace by default gets no write there.
	if (grant === null || cwd === undefined) return grant;
	const folder = writableFolder(resolve(place.workspace, cwd), `${place.where}: field "cwd"`);
	return {...grant, writable: [...new Set([folder, ...grant.writable])]};
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
	if (server.sandbox.allowedDomains.length === 0) {
		const {file, args} = sandboxCommand(probe, policy, program);
		return {command: file, args};
	}

	const proxy = await startDomainProxy({allowedDomains: server.sandbox.allowedDomains, folder: proxyFolder()});
	const {file, args} = sandboxCommand(probe, {...policy, socket: proxy.socketPath}, program);
	return {command: file, args, release: async () => proxy.close()};
}
