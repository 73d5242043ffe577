import {access, constants, lstat, realpath} from 'node:fs/promises';
import {homedir, tmpdir} from 'node:os';
import {delimiter, join, sep} from 'node:path';
import {errorMessage} from '../errors.js';
import {bwrapArgv, type SandboxPolicy} from './bwrap-argv.js';
import type {SandboxConfig} from './sandbox-config.js';

/** Whether the sandbox can run here, found once a run: bubblewrap's path and whether it takes `--disable-userns`, or why not. */
export type SandboxProbe = {ok: true; bwrap: string; disableUserns: boolean} | {ok: false; why: string};

/** What the shell tool runs: the sandbox's program and arguments around `/bin/sh -c COMMAND`. */
export interface WrappedCommand {
	file: string;
	args: string[];
}

/** What a person keeps out of every command's reach, under the home folder. */
const HIDDEN_IN_HOME = ['.ssh', '.aws', '.gnupg'];
/** Lines of a sandboxed command's output that look like the sandbox's refusals. */
const REFUSED =
	/Read-only file system|Permission denied|Network is unreachable|Could not resolve host|Couldn't connect to server|Temporary failure in name resolution|Name or service not known|EROFS|ENETUNREACH|EAI_AGAIN|ENOTFOUND/;
/** Refusal lines quoted in a result at most. */
const MAX_QUOTED_REFUSALS = 3;

/**
 * The sandbox the model's `shell` commands run in (docs/sandbox.md): on
 * Linux, bubblewrap with the policy of bwrap-argv.ts. It is told its
 * configuration once the run's settings are read (`configure`), and finds
 * out on first use whether bubblewrap works here; where it does not, it
 * says so once and the shell tool asks before every command.
 */
export class ShellSandbox {
	readonly #place: {workspace: string; configDir: string};
	readonly #warn: (message: string) => void;
	readonly #findBwrap: () => Promise<string | null>;
	#config: SandboxConfig = {enabled: true, off: null, allowWrite: [], allowedDomains: []};
	#probe: Promise<SandboxProbe> | undefined;

	constructor(place: {workspace: string; configDir: string}, warn: (message: string) => void, findBwrap: () => Promise<string | null> = () => onPath('bwrap')) {
		this.#place = place;
		this.#warn = warn;
		this.#findBwrap = findBwrap;
	}

	configure(config: SandboxConfig): void {
		this.#config = config;
	}

	/** Whether commands are to run sandboxed: off with `--no-sandbox` or `"enabled": false`. */
	get enabled(): boolean {
		return this.#config.enabled;
	}

	get config(): SandboxConfig {
		return this.#config;
	}

	/** Whether bubblewrap works here (tried once a run); the first time it does not, the warning says why and what follows. */
	async ready(): Promise<SandboxProbe> {
		this.#probe ??= this.#tryBwrap().then(probe => {
			if (!probe.ok)
				this.#warn(
					`the sandbox for the model's shell commands cannot start (${probe.why}): every shell command asks before it runs; install bubblewrap, or pass --no-sandbox to run them unsandboxed as before (docs/sandbox.md)`,
				);
			return probe;
		});
		return this.#probe;
	}

	/** bubblewrap around `/bin/sh -c command`, with the run's policy as the file system is now. */
	async wrap(probe: Extract<SandboxProbe, {ok: true}>, command: string): Promise<WrappedCommand> {
		const policy = await this.#policy();
		return {file: probe.bwrap, args: [...bwrapArgv(policy, {disableUserns: probe.disableUserns}), '--', '/bin/sh', '-c', command]};
	}

	/** What a sandboxed command's result adds when its output looks refused by the sandbox: the lines, and how to run it outside. */
	refusalNote(output: string): string | null {
		const lines = output.split('\n').filter(line => REFUSED.test(line));
		if (lines.length === 0) return null;
		const quoted = lines.slice(0, MAX_QUOTED_REFUSALS).map(line => `  ${line.trim()}`);
		const network = this.#config.allowedDomains.length === 0 ? 'the network is off' : `the network reaches only ${this.#config.allowedDomains.join(', ')}`;
		return [
			'[sandbox] This command ran in i’s sandbox, which may have refused:',
			...quoted,
			`In the sandbox, writes are refused outside the workspace, the temporary folder and sandbox.allowWrite; ${network}; ~/.ssh, ~/.aws, ~/.gnupg and i’s config are hidden.`,
			'If the command needs more, call shell again with "sandbox": false; the person is asked before it runs.',
		].join('\n');
	}

	async #policy(): Promise<SandboxPolicy> {
		const {workspace, configDir} = this.#place;
		const writable = [...new Set([workspace, await realpath(tmpdir()), ...this.#config.allowWrite])];
		const hidden: Array<{path: string; folder: boolean}> = [];
		for (const path of [...HIDDEN_IN_HOME.map(name => join(homedir(), name)), configDir]) {
			const found = await existing(path);
			// Hiding a folder that holds the workspace would hide the workspace.
			if (found && !isWithin(workspace, found.path)) hidden.push(found);
		}

		return {writable, hidden};
	}

	async #tryBwrap(): Promise<SandboxProbe> {
		if (process.platform !== 'linux') return {ok: false, why: `no sandbox is built for ${process.platform} yet`};
		const bwrap = await this.#findBwrap();
		if (bwrap === null) return {ok: false, why: 'bubblewrap (bwrap) is not on PATH'};
		const {execa} = await import('execa');
		const policy: SandboxPolicy = {writable: [], hidden: []};
		for (const disableUserns of [true, false]) {
			const tried = await execa(bwrap, [...bwrapArgv(policy, {disableUserns}), '--', '/bin/true'], {reject: false, stdin: 'ignore', timeout: 10_000});
			if (tried.exitCode === 0) return {ok: true, bwrap, disableUserns};
			// An older bubblewrap without --disable-userns: the same without it.
			if (disableUserns && /disable-userns/.test(String(tried.stderr))) continue;
			return {ok: false, why: `${bwrap} failed: ${String(tried.stderr).trim().split('\n')[0] || errorMessage(tried.shortMessage)}`};
		}

		return {ok: false, why: `${bwrap} failed`};
	}
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
