import {OFFICIAL_HOST} from './official-host.js';

/**
 * The C library's malloc tuning for the official host's own start, given as
 * GLIBC_TUNABLES on Linux (glibc reads it when the process starts; musl and
 * other systems ignore it, and with transparent huge pages off it is only a
 * threshold). Node reads the host's start-up snapshot (3.4 MB on Node 24)
 * into one allocation, and glibc gives every allocation over 128 KiB a
 * mapping of its own, faulted in a 4 KiB page at a time and unmapped when
 * freed: the host's start took about 4,900 page faults against 2,800 for
 * `node -e 0`. With the mapping threshold at 32 MiB (the most glibc allows
 * on 64-bit) such blocks come from the heap instead, which `hugetlb=1`
 * advises for transparent huge pages: about 2,900 faults, and 2.6–2.8 ms less
 * CPU per host and per one-shot on Node 24 (0.4–1.4 ms on Debian's Node 20).
 * A host that lives on keeps the heap's usual trimming of its top, and a
 * frame near the 48 MiB limit still gets its own mapping.
 */
export const HOST_MALLOC_TUNABLES = 'glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=33554432';

const hostArguments = ['--runtime', 'worker', OFFICIAL_HOST] as const;

/**
 * What the pool adds to the environment of one worker for its start (seed
 * §2 gives every worker the same few variables): the malloc tuning, for an
 * official host this very node runs (`exec` is this node, then a script,
 * then `--runtime worker official`, as hostProgramArgv() and bindings that
 * name the host spell it), on Linux; nothing for any other worker. The host
 * removes it before any module runs (forgetStartEnvironment), so its modules
 * see the environment of every other worker.
 */
export function hostStartEnvironment(exec: readonly string[], platform: NodeJS.Platform = process.platform, node: string = process.execPath): Record<string, string> | undefined {
	if (platform !== 'linux' || exec[0] !== node || exec.length < hostArguments.length + 2) return undefined;
	const tail = exec.slice(-hostArguments.length);
	return tail.every((word, index) => word === hostArguments[index]) ? {GLIBC_TUNABLES: HOST_MALLOC_TUNABLES} : undefined;
}

/** The host's first step: the tuning has done its work at the process's start, and nothing the modules start inherits it. A value of the user's own stays. */
export function forgetStartEnvironment(env: NodeJS.ProcessEnv = process.env): void {
	if (env.GLIBC_TUNABLES === HOST_MALLOC_TUNABLES) delete env.GLIBC_TUNABLES;
}
