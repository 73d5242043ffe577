import {spawn} from 'node:child_process';
import {mkdtemp, realpath, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {TestContext} from 'node:test';
import type {PlatformDirs} from '../../source/core/config/dirs.js';

/** A fresh temp folder by its real path, removed after the test. */
export async function tempDir(t: TestContext): Promise<string> {
	const dir = await realpath(await mkdtemp(join(tmpdir(), 'i-workspace-test-')));
	t.after(() => rm(dir, {recursive: true, force: true}));
	return dir;
}

/** The four platform folders under `root` (not created: the code under test creates what it writes). */
export function dirsUnder(root: string): PlatformDirs {
	return {config_dir: join(root, 'config'), data_dir: join(root, 'data'), cache_dir: join(root, 'cache'), runtime_dir: join(root, 'runtime')};
}

/** A compiled module's URL, for child processes to import. */
export function compiledUrl(path: string): string {
	return new URL(`../../${path}`, import.meta.url).href;
}

/** Runs an ES module script in a new node; resolves with its exit code and output. */
export function runScript(script: string): Promise<{code: number | null; stdout: string; stderr: string}> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ['--input-type=module', '-e', script], {stdio: ['ignore', 'pipe', 'pipe']});
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
		child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
		child.on('error', reject);
		child.on('close', code => resolve({code, stdout, stderr}));
	});
}
