import {access, constants, lstat, realpath} from 'node:fs/promises';
import {homedir} from 'node:os';
import {delimiter, join, sep} from 'node:path';
import {errorMessage} from '../errors.js';
import {bwrapArgv, type SandboxPolicy} from './bwrap-argv.js';
import {filterPath} from './filter-file.js';
import {sandboxCommand} from './sandbox-command.js';

/**
 * Whether the sandbox can run here: bubblewrap's path, whether it takes
 * `--disable-userns` and where its UNIX-socket filter opens (filter-file.ts),
 * or why not. `noFilter` says why there is no filter, when there is none.
 */
export type SandboxProbe = {ok: true; bwrap: string; disableUserns: boolean; filter: string | null; noFilter?: string} | {ok: false; why: string};

/** What a person keeps out of every sandboxed process's reach, under the home folder. */
const HIDDEN_IN_HOME = ['.ssh', '.aws', '.gnupg'];
/**
 * Daemons' UNIX sockets: the sandbox's own network namespace does not cover
 * a socket file, and a process that reaches Docker's or the X server's has
 * the machine or the screen. The session's runtime folder (XDG_RUNTIME_DIR:
 * the user's D-Bus, GPG agent, Wayland and Podman sockets) goes too.
 */
const DAEMON_SOCKETS = ['/run/docker.sock', '/var/run/docker.sock', '/run/podman/podman.sock', '/run/containerd/containerd.sock', '/tmp/.X11-unix'];

/**
 * The policy of a sandboxed process (the shell's commands, an MCP server's):
 * the folders it may write, and hidden `~/.ssh`, `~/.aws`, `~/.gnupg`,
 * `i`'s config folder, the SSH agent's socket, the session's runtime
 * folder and the daemons' sockets, as the file system is now. A hidden folder that holds
 * one of `keepVisible` (the workspace, a server's own folders) stays visible,
 * since hiding it would hide what the process was given.
 */
export async function sandboxPolicy(options: {writable: readonly string[]; configDir: string; keepVisible: readonly string[]}): Promise<SandboxPolicy> {
	const hidden: Array<{path: string; folder: boolean}> = [];
	// The SSH agent's socket too: a process that can connect to it can sign with the person's keys.
	const agent = process.env.SSH_AUTH_SOCK ? [process.env.SSH_AUTH_SOCK] : [];
	const runtime = process.env.XDG_RUNTIME_DIR ? [process.env.XDG_RUNTIME_DIR] : [];
	for (const path of [...HIDDEN_IN_HOME.map(name => join(homedir(), name)), options.configDir, ...agent, ...runtime, ...DAEMON_SOCKETS]) {
		const found = await existing(path);
		if (found && !hidden.some(seen => seen.path === found.path) && !options.keepVisible.some(kept => isWithin(kept, found.path))) hidden.push(found);
	}

	return {writable: [...new Set(options.writable)], hidden};
}

/** The first executable `bwrap` on PATH; null when there is none. */
export async function bwrapOnPath(): Promise<string | null> {
	return onPath('bwrap');
}

/** Each way of finding bubblewrap tried once a run: the default (PATH) is what every MCP server and the shell share. */
const probes = new WeakMap<() => Promise<string | null>, Promise<SandboxProbe>>();

/**
 * Whether bubblewrap works here, tried once a run per way of finding it: on
 * Linux only, and only where it can make its namespaces (it runs
 * `/bin/true` with the sandbox's own arguments).
 */
export async function probeBwrap(findBwrap: () => Promise<string | null> = bwrapOnPath): Promise<SandboxProbe> {
	let probe = probes.get(findBwrap);
	if (!probe) {
		probe = tryBwrap(findBwrap);
		probes.set(findBwrap, probe);
	}

	return probe;
}

async function tryBwrap(findBwrap: () => Promise<string | null>): Promise<SandboxProbe> {
	if (process.platform !== 'linux') return {ok: false, why: `no sandbox is built for ${process.platform} yet`};
	const bwrap = await findBwrap();
	if (bwrap === null) return {ok: false, why: 'bubblewrap (bwrap) is not on PATH'};
	const {execa} = await import('execa');
	const policy: SandboxPolicy = {writable: [], hidden: []};
	for (const disableUserns of [true, false]) {
		const tried = await execa(bwrap, [...bwrapArgv(policy, {disableUserns}), '--', '/bin/true'], {reject: false, stdin: 'ignore', timeout: 10_000});
		if (tried.exitCode === 0) return tryFilter(bwrap, disableUserns);
		// An older bubblewrap without --disable-userns: the same without it.
		if (disableUserns && /disable-userns/.test(String(tried.stderr))) continue;
		return {ok: false, why: `${bwrap} failed: ${String(tried.stderr).trim().split('\n')[0] || errorMessage(tried.shortMessage)}`};
	}

	return {ok: false, why: `${bwrap} failed`};
}

/**
 * The probe with the UNIX-socket filter where it loads here (bubblewrap runs
 * `/bin/true` with it); without, and why, where no filter is built for this
 * architecture or the kernel refuses it.
 */
async function tryFilter(bwrap: string, disableUserns: boolean): Promise<SandboxProbe> {
	const without = {ok: true as const, bwrap, disableUserns, filter: null};
	let filter;
	try {
		filter = filterPath();
	} catch (error) {
		return {...without, noFilter: `its filter could not be written: ${errorMessage(error)}`};
	}

	if (filter === null) return {...without, noFilter: `no filter is built for ${process.arch}`};
	const {execa} = await import('execa');
	const {file, args} = sandboxCommand({...without, filter}, {writable: [], hidden: []}, ['/bin/true']);
	const tried = await execa(file, args, {reject: false, stdin: 'ignore', timeout: 10_000});
	if (tried.exitCode === 0) return {...without, filter};
	return {...without, noFilter: `bubblewrap could not load its filter: ${String(tried.stderr).trim().split('\n')[0] || errorMessage(tried.shortMessage)}`};
}

/** The canonical path and kind of what is at `path`; null when nothing is. */
async function existing(path: string): Promise<{path: string; folder: boolean} | null> {
	try {
		const canonical = await realpath(path);
		return {path: canonical, folder: (await lstat(canonical)).isDirectory()};
	} catch {
		return null;
	}
}

/** The first executable `name` on PATH; null when there is none. */
async function onPath(name: string): Promise<string | null> {
	for (const folder of (process.env.PATH ?? '').split(delimiter)) {
		if (folder === '') continue;
		const candidate = join(folder, name);
		try {
			await access(candidate, constants.X_OK);
			return candidate;
		} catch {
			// Not here: the next folder.
		}
	}

	return null;
}

function isWithin(path: string, folder: string): boolean {
	return path === folder || path.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`);
}
