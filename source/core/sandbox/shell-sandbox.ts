import {realpath} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {bwrapArgv} from './bwrap-argv.js';
import type {SandboxConfig} from './sandbox-config.js';
import {bwrapOnPath, probeBwrap, sandboxPolicy, type SandboxProbe} from './sandbox-policy.js';

export type {SandboxProbe} from './sandbox-policy.js';

/** What the shell tool runs: the sandbox's program and arguments around `/bin/sh -c COMMAND`. */
export interface WrappedCommand {
	file: string;
	args: string[];
}

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

	constructor(place: {workspace: string; configDir: string}, warn: (message: string) => void, findBwrap: () => Promise<string | null> = bwrapOnPath) {
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
		this.#probe ??= probeBwrap(this.#findBwrap).then(probe => {
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
		const {workspace, configDir} = this.#place;
		const writable = [workspace, await realpath(tmpdir()), ...this.#config.allowWrite];
		// Hiding a folder that holds the workspace would hide the workspace.
		const policy = await sandboxPolicy({writable, configDir, keepVisible: [workspace]});
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
}
