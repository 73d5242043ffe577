import {realpath} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import type {SandboxConfig} from './sandbox-config.js';
import {proxyFolder, startDomainProxy, type DomainProxy} from './domain-proxy.js';
import {sandboxCommand} from './sandbox-command.js';
import {bwrapOnPath, probeBwrap, sandboxPolicy, type SandboxProbe} from './sandbox-policy.js';

export type {SandboxProbe} from './sandbox-policy.js';

/** What the shell tool runs: the sandbox's program and arguments around `/bin/sh -c COMMAND`, and what to add to its result when it failed. */
export interface WrappedCommand {
	file: string;
	args: string[];
	/** The refusals the sandbox seems to have made (its output's lines, the proxy's refusals meanwhile), or null. */
	note(output: string): string | null;
}

/** Lines of a sandboxed command's output that look like the sandbox's refusals. */
const REFUSED =
	/Read-only file system|Permission denied|Operation not permitted|EPERM|Network is unreachable|Could not resolve host|Couldn't connect to server|Temporary failure in name resolution|Name or service not known|EROFS|ENETUNREACH|EAI_AGAIN|ENOTFOUND/;
/** Refusal lines quoted in a result at most. */
const MAX_QUOTED_REFUSALS = 3;

/**
 * The sandbox the model's `shell` commands run in (docs/sandbox.md): on
 * Linux, bubblewrap with the policy of sandbox-policy.ts. It is told its
 * configuration once the run's settings are read (`configure`), and finds
 * out on first use whether bubblewrap works here; where it does not, it
 * says so once and the shell tool asks before every command.
 */
export class ShellSandbox {
	readonly #place: {workspace: string; configDir: string};
	readonly #warn: (message: string) => void;
	readonly #findBwrap: () => Promise<string | null>;
	readonly #lookup: ((host: string) => Promise<string>) | undefined;
	#config: SandboxConfig = {enabled: true, off: null, allowWrite: [], allowedDomains: []};
	#probe: Promise<SandboxProbe> | undefined;
	#proxy: Promise<DomainProxy> | undefined;

	/** `io`: where bubblewrap is (default: PATH) and how the proxy resolves names (default: the system's), for tests. */
	constructor(place: {workspace: string; configDir: string}, warn: (message: string) => void, io: {findBwrap?: () => Promise<string | null>; lookup?: (host: string) => Promise<string>} = {}) {
		this.#place = place;
		this.#warn = warn;
		this.#findBwrap = io.findBwrap ?? bwrapOnPath;
		this.#lookup = io.lookup;
	}

	/** The run's configuration; a sandbox turned off says so once, as commands then run with the person's full rights. */
	configure(config: SandboxConfig): void {
		this.#config = config;
		if (!config.enabled) this.#warn(`the sandbox is off (${config.off ?? 'turned off'}): the model's shell commands run with your full rights (docs/sandbox.md)`);
	}

	/** Whether commands are to run sandboxed: off with `--no-sandbox` or `"enabled": false`. */
	get enabled(): boolean {
		return this.#config.enabled;
	}

	/** Whether bubblewrap works here (tried once a run); the first time it does not, the warning says why and what follows. */
	async ready(): Promise<SandboxProbe> {
		this.#probe ??= probeBwrap(this.#findBwrap).then(probe => {
			if (!probe.ok)
				this.#warn(
					`the sandbox for the model's shell commands cannot start (${probe.why}): every shell command asks before it runs; install bubblewrap, or pass --no-sandbox to run them unsandboxed as before (docs/sandbox.md)`,
				);
			else if (probe.noFilter) this.#warn(`the sandbox cannot keep commands off UNIX sockets here (${probe.noFilter}): a socket file they can see can be connected to (docs/sandbox.md)`);
			return probe;
		});
		return this.#probe;
	}

	/**
	 * bubblewrap around `/bin/sh -c command`, with the run's policy as the
	 * file system is now; with allowed domains, the domain proxy (started on
	 * first use) is bound in and bridged to a port of the sandbox's own.
	 */
	async wrap(probe: Extract<SandboxProbe, {ok: true}>, command: string): Promise<WrappedCommand> {
		const {workspace, configDir} = this.#place;
		const writable = [workspace, await realpath(tmpdir()), ...this.#config.allowWrite];
		// Hiding a folder that holds the workspace would hide the workspace.
		const policy = await sandboxPolicy({writable, configDir, keepVisible: [workspace]});
		const proxy = this.#config.allowedDomains.length > 0 ? await this.#startProxy() : null;
		const before = proxy?.refusals().length ?? 0;
		const note = (output: string) => this.#refusalNote(output, proxy ? proxy.refusals().slice(before) : [], probe.filter !== null);
		return {...sandboxCommand(probe, {...policy, socket: proxy?.socketPath}, ['/bin/sh', '-c', command]), note};
	}

	/** Stops the domain proxy, when one started. */
	async close(): Promise<void> {
		const proxy = await this.#proxy?.catch(() => null);
		await proxy?.close();
	}

	#startProxy(): Promise<DomainProxy> {
		this.#proxy ??= startDomainProxy({allowedDomains: this.#config.allowedDomains, folder: proxyFolder(), ...(this.#lookup ? {lookup: this.#lookup} : {})});
		return this.#proxy;
	}

	/** What a sandboxed command's result adds when its output looks refused by the sandbox: the lines, what the proxy refused, and how to run it outside. */
	#refusalNote(output: string, refusals: readonly string[], filtered: boolean): string | null {
		const lines = output.split('\n').filter(line => REFUSED.test(line));
		if (lines.length === 0 && refusals.length === 0) return null;
		const quoted = [...lines.slice(0, MAX_QUOTED_REFUSALS).map(line => `  ${line.trim()}`), ...refusals.slice(-MAX_QUOTED_REFUSALS).map(refusal => `  the network proxy refused ${refusal}`)];
		const network = this.#config.allowedDomains.length === 0 ? 'the network is off' : `the network reaches only ${this.#config.allowedDomains.join(', ')}`;
		return [
			'[sandbox] This command ran in i’s sandbox, which may have refused:',
			...quoted,
			`In the sandbox, writes are refused outside the workspace, the temporary folder and sandbox.allowWrite; ${network}${filtered ? '; UNIX sockets cannot be opened' : ''}; ~/.ssh, ~/.aws, ~/.gnupg and i’s config are hidden.`,
			'If the command needs more, call shell again with "sandbox": false; the person is asked before it runs.',
		].join('\n');
	}
}
