import {existsSync, readFileSync, realpathSync, statSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {UsageError} from '../errors.js';

/**
 * The argv that starts this same program: node and the absolute, canonical
 * path of the script it runs. Manifests generated from it name official
 * workers as `[...programArgv(), '--runtime', 'worker', NAME]`.
 */
export function programArgv(): string[] {
	const script = process.argv[1];
	if (!script) throw new Error('cannot tell which script is running: process.argv[1] is empty');
	return [process.execPath, realpathSync(script)];
}

/** This package's name and its command's script, as package.json names them. */
const packageName = 'i-agent';
const commandScript = join('bin', 'i.js');

/**
 * The argv that starts this package's own `i` (bin/i.js), for a process
 * that is not `i`: a script that embeds the core (core/api), whose
 * process.argv[1] is its own. Found by walking up from this module to the
 * package's root, which is two folders up from the bundle (dist/core,
 * dist/bundle) and four from the compiled tree (dist/source/core/plugins).
 */
export function packageProgramArgv(from: string = fileURLToPath(import.meta.url)): string[] {
	for (let dir = dirname(from); ; dir = dirname(dir)) {
		const script = join(dir, commandScript);
		if (existsSync(script) && readPackageName(join(dir, 'package.json')) === packageName) return [process.execPath, realpathSync(script)];
		if (dirname(dir) === dir) {
			// A bundler that copied the core into another bundle left the package behind.
			throw new UsageError(
				`the official workers need ${commandScript} of the ${packageName} package, and no folder above ${from} holds it; ` +
					`import ${packageName}/core from the installed package (keep it external to a bundle), or use a config without the builtin profile`,
			);
		}
	}
}

function readPackageName(path: string): unknown {
	try {
		return (JSON.parse(readFileSync(path, 'utf8')) as {name?: unknown}).name;
	} catch {
		return undefined;
	}
}

/**
 * The start-up snapshot of the official host (scripts/bundle.js builds it
 * beside the host's bundle, `dist/host`, for the Node.js that ran the
 * build): the blob and what it was built with.
 */
const snapshotBlob = new URL('../host/official.blob', import.meta.url);
const snapshotInfo = new URL('../host/official.blob.json', import.meta.url);

/**
 * The V8 flags a host snapshot is built and started with (node refuses a
 * blob started with other flags). `--no-rehash-snapshot`: V8 otherwise
 * rehashes every string and dictionary of the snapshot's heap on each start
 * with a fresh seed, 4–5 ms of the host's 14 ms start on Node 20 and 24. The
 * seed kept instead is the random one drawn when the blob was built, on this
 * machine, into a folder of this user's (blobs are never shipped: a snapshot
 * runs only on the node that built it), so it is no more guessable than the
 * user's own files. `--no-sparkplug --no-maglev`: a host mostly lives for
 * one turn's few frames, and V8's baseline and mid-tier compilers spent
 * about 2 ms of CPU on Node 24 compiling code the process exits before it
 * runs much; a host that lives on (the chat screen's) still gets TurboFan
 * for what is hot, and the hooks' per-turn cost on a 100k-token history
 * stays where it was (`BENCH_ONLY=hooks`: 4.1–4.2 ms against 4.4–4.7).
 * Node 20 has no Maglev on by default; the flag is a no-op there.
 * `--min-semi-space-size=2` (MB, against V8's 1): a turn's frames allocate a
 * little more than the young generation first holds, and the one
 * collection that took (about 1 ms of a host's CPU) is no longer needed;
 * V8 still grows it for a host that lives on.
 */
export const snapshotFlags: readonly string[] = ['--no-rehash-snapshot', '--no-sparkplug', '--no-maglev', '--min-semi-space-size=2'];

/**
 * The argv that starts the official host: `node FLAGS --snapshot-blob BLOB SCRIPT`
 * when a snapshot was built by this very Node.js binary (same version,
 * platform, path, size and modification time: a blob from another build
 * would make node refuse to start), else the one `kept` names (a copy
 * without a snapshot of its own keeps one in the cache folder:
 * kept-snapshot.ts), else `programArgv()`. Either way the rest is
 * `--runtime worker official`.
 */
export function hostProgramArgv(program: readonly string[] = programArgv(), snapshot: {blob: URL; note: URL} = {blob: snapshotBlob, note: snapshotInfo}, kept?: () => string | undefined): string[] {
	const blob = snapshotFits(snapshot.note) ? fileURLToPath(snapshot.blob) : kept?.();
	return blob === undefined ? [...program] : [program[0]!, ...snapshotFlags, '--snapshot-blob', blob, ...program.slice(1)];
}

function snapshotFits(note: URL): boolean {
	let info: unknown;
	try {
		info = JSON.parse(readFileSync(note, 'utf8'));
	} catch {
		// No snapshot (or an unreadable note of one): the host starts from its bundle.
		return false;
	}

	const node = statSync(process.execPath, {throwIfNoEntry: false});
	return JSON.stringify(info) === JSON.stringify(snapshotBuild(node));
}

/** What a snapshot must have been built with to run on this Node.js, with its flags (a note without them is of a blob the flags would make node refuse); scripts/bundle.js writes the same fields. */
export function snapshotBuild(node = statSync(process.execPath, {throwIfNoEntry: false})): Record<string, unknown> {
	return {node: process.version, platform: process.platform, arch: process.arch, execPath: process.execPath, size: node?.size ?? null, mtimeMs: node?.mtimeMs ?? null, flags: [...snapshotFlags]};
}
