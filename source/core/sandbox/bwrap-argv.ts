/** What a sandboxed command may touch; every path canonical and existing. */
export interface SandboxPolicy {
	/** Folders the command may write: the workspace, the temporary folder, `sandbox.allowWrite`. */
	writable: readonly string[];
	/** What the command may not read: a folder is hidden behind an empty one, a file behind an empty file. */
	hidden: ReadonlyArray<{path: string; folder: boolean}>;
	/** A UNIX socket bound into the sandbox (the domain proxy's); none when the network is off. */
	socket?: string | undefined;
}

/**
 * bubblewrap's arguments for a policy, before `--` and the command: the
 * whole file system read-only, the writable folders bound again
 * read-write, the hidden paths covered (the policy leaves out any that holds
 * the workspace), a user namespace without capabilities or
 * nested namespaces, its own process tree (so `i` and its environment are
 * not there to read) and no network. `--die-with-parent` ends the command
 * with the process that started it. `innerSandbox`: a second bubblewrap
 * runs inside (sandbox-command.ts); run by root, it needs CAP_SETFCAP to map
 * root into its user namespace, which it drops again for its program.
 */
export function bwrapArgv(policy: SandboxPolicy, options: {disableUserns: boolean; innerSandbox?: boolean}): string[] {
	const argv = ['--new-session', '--die-with-parent', '--unshare-user', ...(options.disableUserns ? ['--disable-userns'] : []), '--cap-drop', 'ALL'];
	if (options.innerSandbox && process.getuid?.() === 0) argv.push('--cap-add', 'CAP_SETFCAP');
	argv.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--unshare-net');
	argv.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
	for (const path of policy.writable) argv.push('--bind', path, path);
	// After the writable folders, so a hidden path inside one (a home folder under /tmp) stays hidden.
	for (const {path, folder} of policy.hidden) argv.push(...(folder ? ['--tmpfs', path, '--remount-ro', path] : ['--ro-bind', '/dev/null', path]));
	if (policy.socket) argv.push('--bind', policy.socket, policy.socket);
	return argv;
}
