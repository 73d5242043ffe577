import {realpath} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {UsageError} from '../errors.js';
import type {LoadedPlugins, WorkerSpec} from '../pool/types.js';
import {describeWorker} from '../pool/worker-process.js';
import {bwrapArgv} from '../sandbox/bwrap-argv.js';
import {probeBwrap, sandboxPolicy} from '../sandbox/sandbox-policy.js';

/**
 * Puts bubblewrap before every worker whose entry asked for the sandbox
 * (`"sandbox": true` or `{"allowWrite": […]}` in a manifest, bindings.json
 * or the config's provider): no network, writes only in the temporary
 * folder and its allowWrite, the person's keys hidden, its own process
 * tree. Where bubblewrap cannot start, the load fails naming the worker:
 * a worker that asked for the sandbox never runs without it.
 */
export async function sandboxWorkers(plugins: LoadedPlugins, configDir: string): Promise<void> {
	const specs: WorkerSpec[] = [...plugins.tools.map(tool => tool.worker), ...plugins.hooks.map(hook => hook.worker), ...(plugins.provider ? [plugins.provider] : [])].filter(spec => spec.sandbox);
	if (specs.length === 0) return;
	const probe = await probeBwrap();
	if (!probe.ok) throw new UsageError(`${describeWorker(specs[0]!)} asks for the sandbox, which cannot start here (${probe.why}); install bubblewrap, or take "sandbox" out of its entry`);
	const temporary = await realpath(tmpdir());
	const wrappers = new Map<string, string[]>();
	for (const spec of specs) {
		const writable = spec.sandbox!.writable;
		const key = JSON.stringify([spec.cwd, writable]);
		let wrapper = wrappers.get(key);
		if (!wrapper) {
			// What the entry gave the worker (its folder, allowWrite) is never hidden from it.
			const policy = await sandboxPolicy({writable: [temporary, ...writable], configDir, keepVisible: [spec.cwd, ...writable]});
			wrapper = [probe.bwrap, ...bwrapArgv(policy, {disableUserns: probe.disableUserns}), '--'];
			wrappers.set(key, wrapper);
		}

		spec.wrapper = wrapper;
	}
}
