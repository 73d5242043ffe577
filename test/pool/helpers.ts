import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {accessSync, constants, existsSync, readFileSync, realpathSync} from 'node:fs';
import {mkdir, mkdtemp, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {delimiter, join} from 'node:path';
import {setTimeout as delay} from 'node:timers/promises';
import type {TestContext} from 'node:test';
import {fileURLToPath} from 'node:url';
import type {PlatformDirs} from '../../source/core/config/dirs.js';
import {createWorkerPool} from '../../source/core/pool/pool.js';
import {WorkerError, type WorkerFailureKind, type WorkerPool, type WorkerSpec} from '../../source/core/pool/types.js';
import {workerEnvironment} from '../../source/core/pool/worker-environment.js';

/** A fixture worker's source file; they are not compiled, so this works from dist/ and .dist-*. */
export function fixture(name: string): string {
	return fileURLToPath(new URL(`../../../test/fixtures/workers/${name}`, import.meta.url));
}

/** A program's absolute path, as a manifest's exec resolves it. */
export function onPath(name: string): string {
	for (const folder of (process.env.PATH ?? '').split(delimiter)) {
		const candidate = join(folder, name);
		try {
			accessSync(candidate, constants.X_OK);
			return candidate;
		} catch {
			// Not in this folder.
		}
	}

	throw new Error(`${name} is not on PATH`);
}

// The interpreter itself: a version-manager shim (pyenv) on PATH would add its own variables and start-up time.
export const python = execFileSync(onPath('python3'), ['-c', 'import sys; print(sys.executable)'], {encoding: 'utf8'}).trim();
export const sh = '/bin/sh';
export const workspaceId = 'f29127b0-f512-4c6e-9e31-87d476d168ce';

export interface Setup {
	pool: WorkerPool;
	/** A folder of the test's own: the workspace, and the cwd of its workers. */
	dir: string;
	dirs: PlatformDirs;
	/** faulty.py in MODE, in `dir` (or `cwd`). */
	faulty(mode: string, cwd?: string): WorkerSpec;
}

export async function setup(t: TestContext, options: {callTimeoutMs?: number; ioLimitBytes?: number; parentEnv?: NodeJS.ProcessEnv} = {}): Promise<Setup> {
	const dir = realpathSync(await mkdtemp(join(tmpdir(), 'i-pool-')));
	const dirs: PlatformDirs = {
		config_dir: join(dir, 'config'),
		data_dir: join(dir, 'data'),
		cache_dir: join(dir, 'cache'),
		runtime_dir: join(dir, 'runtime'),
	};
	const pool = createWorkerPool({
		context: {workspace: dir, workspace_id: workspaceId, paths: dirs},
		env: workerEnvironment(options.parentEnv ?? process.env, dirs),
		ioLimitBytes: options.ioLimitBytes ?? 1024 * 1024,
		callTimeoutMs: options.callTimeoutMs ?? 10_000,
	});
	t.after(async () => {
		await pool.close();
		await rm(dir, {recursive: true, force: true});
	});
	return {pool, dir, dirs, faulty: (mode, cwd = dir) => ({exec: [python, fixture('faulty.py'), mode], cwd})};
}

export async function folder(parent: string, name: string): Promise<string> {
	const path = join(parent, name);
	await mkdir(path);
	return path;
}

/** Checks a rejection's kind and message (a RegExp that must match). */
export function failure(kind: WorkerFailureKind, message: RegExp): (error: unknown) => boolean {
	return error => {
		assert.ok(error instanceof WorkerError, `not a WorkerError: ${String(error)}`);
		assert.equal(error.kind, kind, error.message);
		assert.match(error.message, message);
		return true;
	};
}

/** Running, and not a zombie waiting for its new parent to reap it. */
export function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}

	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat[stat.lastIndexOf(')') + 2] !== 'Z';
	} catch {
		// Reaped since the signal check; or no /proc (macOS), where the signal check is all there is.
		return !existsSync('/proc/self/stat');
	}
}

export async function waitUntilGone(pid: number, ms = 3000): Promise<boolean> {
	const deadline = Date.now() + ms;
	while (isAlive(pid)) {
		if (Date.now() > deadline) return false;
		await delay(20);
	}

	return true;
}

/** SIGKILLs a process a failed test may have left behind; one that is gone already is fine. */
export function killQuietly(pid: number): void {
	try {
		process.kill(pid, 'SIGKILL');
	} catch {
		// Gone: what the test wanted.
	}
}

/** The `pid` a faulty.py, banner.sh or grandchildren.sh answer reports. */
export function pidOf(data: Record<string, unknown>): number {
	assert.equal(typeof data.pid, 'number', JSON.stringify(data).slice(0, 200));
	return data.pid as number;
}
