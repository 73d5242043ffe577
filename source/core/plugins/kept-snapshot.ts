import {spawn, type ChildProcess} from 'node:child_process';
import {mkdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {inheritedEnvironment} from '../pool/worker-environment.js';
import {snapshotBuild} from './program.js';

/**
 * The official host's start-up snapshot kept in `<cache_dir>/host` for a
 * copy of `i` that has none of its own: an installed package carries the
 * snapshot's source (dist/host/official-snapshot.cjs), not a blob, which
 * only runs on the node that built it. The first run that finds none starts
 * bin/host-snapshot.js detached to make one (a few seconds of CPU, once per
 * node and package build); until it is in place the host starts from its
 * bundle. The note beside a blob names the node and the source it was made
 * from and the blob's size: anything else and the blob is not used.
 */
const snapshotSource = new URL('../host/official-snapshot.cjs', import.meta.url);
const snapshotBuilder = new URL('../../bin/host-snapshot.js', import.meta.url);

/** A lock older than this is a builder that died: building takes a few seconds. */
const STALE_LOCK_MS = 10 * 60 * 1000;

export interface KeptSnapshotOptions {
	/** The snapshot's source; this copy's dist/host/official-snapshot.cjs by default. */
	source?: string;
	/** bin/host-snapshot.js of this copy by default. */
	builder?: string;
	/** Start a builder when there is no usable blob (true by default). */
	build?: boolean;
	/** Called with the builder started, if one is. */
	onBuild?: (child: ChildProcess) => void;
}

/** Where the kept blob of `source` lives: one per source path and node, so two copies of `i` keep their own. */
export function keptSnapshotPath(cacheDir: string, source: string): string {
	return join(cacheDir, 'host', `official-${pathId(source)}-${process.version}-${process.platform}-${process.arch}.blob`);
}

/**
 * A short name for a source path: 64-bit FNV-1a of its UTF-8 bytes, in hex.
 * Not node:crypto's sha256: this module runs before the host starts, and
 * node:crypto takes about 3 ms to load. Two paths with one name would only
 * take turns at rebuilding the blob (its note names the path).
 */
function pathId(source: string): string {
	let hash = 0xcbf29ce484222325n;
	for (const byte of Buffer.from(source, 'utf8')) hash = BigInt.asUintN(64, (hash ^ BigInt(byte)) * 0x100000001b3n);
	return hash.toString(16).padStart(16, '0');
}

/**
 * The kept blob to start the host from, or undefined (the host then starts
 * from its bundle): it must have been made from this very source by this
 * very node. Without one, a builder is started, unless one is at work or
 * the last build for the same node and source failed.
 */
export function keptSnapshot(cacheDir: string, options: KeptSnapshotOptions = {}): string | undefined {
	const source = options.source ?? fileURLToPath(snapshotSource);
	const expected = noteFor(source);
	// No source: a checkout that was never built, or a package without it.
	if (expected === undefined) return undefined;
	const blob = keptSnapshotPath(cacheDir, source);
	if (noteMatches(blob, expected)) return blob;
	if (options.build === false || readText(`${blob}.failed`) === expected || !takeLock(`${blob}.lock`)) return undefined;
	// The builder owns the lock from here and removes it when done.
	const child = spawn(process.execPath, [options.builder ?? fileURLToPath(snapshotBuilder), source, blob, expected], {
		detached: true,
		stdio: 'ignore',
		// It runs the host's own code, as the host runs: with a worker's system environment and no secret.
		env: inheritedEnvironment(process.env),
		windowsHide: true,
	});
	// A builder that cannot start is only a host without a snapshot.
	child.on('error', () => rmSync(`${blob}.lock`, {force: true}));
	child.unref();
	options.onBuild?.(child);
	return undefined;
}

/**
 * Made here, before the builder starts, so two runs started together never
 * start two builders; a stale one (its builder died) is taken over. Not
 * file-lock.ts: its locks name the process that holds them, and this one
 * passes from the run, which exits at once, to the builder it starts.
 */
function takeLock(lock: string): boolean {
	for (let attempt = 0; attempt < 2; attempt++) {
		try {
			mkdirSync(dirname(lock), {recursive: true});
			writeFileSync(lock, String(process.pid), {flag: 'wx'});
			return true;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return false;
			const held = statSync(lock, {throwIfNoEntry: false});
			if (held && Date.now() - held.mtimeMs < STALE_LOCK_MS) return false;
			rmSync(lock, {force: true});
		}
	}

	return false;
}

/** What a kept blob's note must say, less its size: the node (snapshotBuild) and the source as it is now. */
function noteFor(source: string): string | undefined {
	const info = statSync(source, {throwIfNoEntry: false});
	if (!info?.isFile()) return undefined;
	return JSON.stringify({build: snapshotBuild(), source: {path: source, size: info.size, mtimeMs: info.mtimeMs}});
}

function noteMatches(blob: string, expected: string): boolean {
	let note: Record<string, unknown>;
	try {
		note = JSON.parse(readFileSync(`${blob}.json`, 'utf8')) as Record<string, unknown>;
	} catch {
		return false;
	}

	const {blobSize, ...rest} = note;
	return JSON.stringify(rest) === expected && statSync(blob, {throwIfNoEntry: false})?.size === blobSize;
}

function readText(path: string): string | undefined {
	try {
		return readFileSync(path, 'utf8');
	} catch {
		return undefined;
	}
}
