import {bwrapArgv, type SandboxPolicy} from './bwrap-argv.js';
import {throughProxy} from './proxy-bridge.js';

/** The descriptor bubblewrap reads the UNIX-socket filter from (`--seccomp 3`). */
export const FILTER_FD = 3;

/** Opens the filter (`$1`) on fd 3, then becomes bubblewrap (the rest): one exec, so the process and its group stay the same. */
const OPEN_FILTER = `exec ${FILTER_FD}<"$1" || exit 126; shift; exec "$@"`;

/**
 * The command line of `program` in the sandbox of `policy` (the shell's
 * commands, an MCP server, a worker, which may append its own program):
 * bubblewrap with the policy and, where the probe found the filter,
 * `socket(AF_UNIX)` refused (unix-socket-filter.ts). With the domain proxy's
 * socket, the bridge (proxy-bridge.ts) must still reach that socket, so it
 * runs in the outer sandbox and the program in a second bubblewrap inside
 * it that adds the filter and a process tree of its own.
 */
export function sandboxCommand(probe: {bwrap: string; disableUserns: boolean; filter: string | null}, policy: SandboxPolicy, program: readonly string[]): {file: string; args: string[]} {
	const {bwrap, disableUserns, filter} = probe;
	if (filter === null) {
		const argv = bwrapArgv(policy, {disableUserns});
		return {file: bwrap, args: [...argv, '--', ...(policy.socket ? throughProxy(policy.socket, program) : program)]};
	}

	const seccomp = ['--seccomp', String(FILTER_FD)];
	const opening = ['-c', OPEN_FILTER, 'i-sandbox', filter, bwrap];
	if (!policy.socket) return {file: '/bin/sh', args: [...opening, ...bwrapArgv(policy, {disableUserns}), ...seccomp, '--', ...program]};
	// The inner bubblewrap makes a user namespace, so the outer one allows it; the inner one forbids more.
	const outer = bwrapArgv(policy, {disableUserns: false, innerSandbox: true});
	const inner = [bwrap, ...innerArgv(disableUserns), ...seccomp, '--', ...program];
	return {file: '/bin/sh', args: [...opening, ...outer, '--', ...throughProxy(policy.socket, inner)]};
}

/**
 * The inner bubblewrap's options: the outer sandbox's file system as it
 * is, a user namespace without capabilities, and its own process tree, so
 * the bridge's processes cannot be traced or signalled. A fresh /proc cannot
 * be mounted over the outer one's covered parts, so /proc stays the outer
 * one's, read-only: the bridge's memory cannot be written through it.
 */
function innerArgv(disableUserns: boolean): string[] {
	return ['--new-session', '--die-with-parent', '--unshare-user', ...(disableUserns ? ['--disable-userns'] : []), '--cap-drop', 'ALL', '--unshare-pid', '--dev-bind', '/', '/', '--remount-ro', '/proc'];
}
