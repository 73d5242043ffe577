import {realpath} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {UsageError} from '../errors.js';
import type {LoadedPlugins, WorkerSpec} from '../pool/types.js';
import {describeWorker} from '../pool/worker-process.js';
import {proxyFolder, startDomainProxy, type DomainProxy} from '../sandbox/domain-proxy.js';
import {sandboxCommand} from '../sandbox/sandbox-command.js';
import {probeBwrap, sandboxPolicy} from '../sandbox/sandbox-policy.js';

/**
 * Puts bubblewrap before every worker whose entry asked for the sandbox
 * (`"sandbox": true` or `{"allowWrite": […], "allowedDomains": […]}` in a
 * manifest, bindings.json or the config's provider): writes only in the
 * temporary folder and its allowWrite, the network only to its
 * allowedDomains through a domain proxy of its own, the person's keys
 * hidden, its own process tree. Where bubblewrap cannot start, the load
 * fails naming the worker: a worker that asked for the sandbox never runs
 * without it. Returns what stops the proxies, for the pool's close.
 */
export async function sandboxWorkers(plugins: LoadedPlugins, configDir: string): Promise<() => Promise<void>> {
	const specs: WorkerSpec[] = [...plugins.tools.map(tool => tool.worker), ...plugins.hooks.map(hook => hook.worker), ...(plugins.provider ? [plugins.provider] : [])].filter(spec => spec.sandbox);
	const proxies: DomainProxy[] = [];
	const release = async () => {
		await Promise.all(proxies.map(async proxy => proxy.close()));
	};

	if (specs.length === 0) return release;
	const probe = await probeBwrap();
	if (!probe.ok) throw new UsageError(`${describeWorker(specs[0]!)} asks for the sandbox, which cannot start here (${probe.why}); install bubblewrap, or take "sandbox" out of its entry`);
	const temporary = await realpath(tmpdir());
	const wrappers = new Map<string, string[]>();
	try {
		for (const spec of specs) {
			const {writable, allowedDomains} = spec.sandbox!;
			const key = JSON.stringify([spec.cwd, writable, allowedDomains]);
			let wrapper = wrappers.get(key);
			if (!wrapper) {
				// What the entry gave the worker (its folder, allowWrite) is never hidden from it.
				const policy = await sandboxPolicy({writable: [temporary, ...writable], configDir, keepVisible: [spec.cwd, ...writable]});
				const proxy = allowedDomains.length > 0 ? await startDomainProxy({allowedDomains, folder: proxyFolder()}) : null;
				if (proxy) proxies.push(proxy);
				// The worker's program and arguments follow the wrapper's last word.
				const {file, args} = sandboxCommand(probe, {...policy, socket: proxy?.socketPath}, []);
				wrapper = [file, ...args];
				wrappers.set(key, wrapper);
			}

			spec.wrapper = wrapper;
		}
	} catch (error) {
		await release();
		throw error;
	}

	return release;
}
