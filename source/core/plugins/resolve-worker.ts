import {accessSync, constants, realpathSync, statSync} from 'node:fs';
import {delimiter, isAbsolute, join, resolve} from 'node:path';
import {UsageError} from '../errors.js';
import {checkSandboxEntry, type SandboxEntry} from '../sandbox/sandbox-entry.js';
import type {WorkerSpec} from '../pool/types.js';

/** A worker as manifests, bindings.json and the API config spell it. */
export interface WorkerBinding {
	exec: string[];
	cwd?: string | undefined;
	/** Run it in the sandbox (docs/plugins.md, "Workers in the sandbox"). */
	sandbox?: SandboxEntry;
}

/**
 * Resolves a binding into the spec the pool runs (spec/platform.md §1): `cwd` defaults
 * to `baseDir`, a relative one resolves against it, and the result must be
 * an existing folder, canonicalised. `exec[0]` without a path separator is
 * looked up on PATH now, so a missing program fails at load and not at the
 * first call; with a separator it resolves against the final cwd. `where`
 * prefixes every error: the file and the entry.
 */
export function resolveWorker(binding: WorkerBinding, baseDir: string, where: string, env: NodeJS.ProcessEnv = process.env): WorkerSpec {
	const cwd = canonicalFolder(resolve(baseDir, binding.cwd ?? '.'), binding.cwd, where);
	const [program, ...args] = binding.exec;
	if (program === undefined || program === '') throw new UsageError(`${where}: "exec" must start with the program to run`);
	const path = hasSeparator(program) ? checkProgram(resolve(cwd, program), program, cwd, where) : findOnPath(program, env, where);
	const sandbox = checkSandboxEntry(binding.sandbox, {base: cwd, where});
	return sandbox === null ? {exec: [path, ...args], cwd} : {exec: [path, ...args], cwd, sandbox};
}

function canonicalFolder(path: string, given: string | undefined, where: string): string {
	const what = given === undefined ? `the default cwd ${path}` : `"cwd" ${JSON.stringify(given)} (${path})`;
	let real: string;
	try {
		real = realpathSync(path);
	} catch (error) {
		throw new UsageError(`${where}: ${what} ${describeMissing(error)}; "cwd" must name an existing folder`);
	}

	if (!statSync(real).isDirectory()) throw new UsageError(`${where}: ${what} is not a folder; "cwd" must name an existing folder`);
	return real;
}

function hasSeparator(program: string): boolean {
	return program.includes('/') || (process.platform === 'win32' && program.includes('\\'));
}

function checkProgram(path: string, given: string, cwd: string, where: string): string {
	const problem = programProblem(path);
	if (problem) {
		const shown = path === given ? path : `"${given}" (resolved against cwd ${cwd} to ${path})`;
		throw new UsageError(`${where}: exec[0] ${shown} ${problem}`);
	}

	return path;
}

/** Why `path` cannot be run, or null when it can. */
function programProblem(path: string): string | null {
	let isFile: boolean;
	try {
		isFile = statSync(path).isFile();
	} catch (error) {
		return describeMissing(error);
	}

	if (!isFile) return 'is not a file';
	if (process.platform === 'win32') return null;
	try {
		accessSync(path, constants.X_OK);
		return null;
	} catch {
		return 'is not executable (chmod +x it, or name its interpreter first: ["python3", "worker.py"])';
	}
}

function findOnPath(program: string, env: NodeJS.ProcessEnv, where: string): string {
	// Relative PATH entries would make the program depend on the folder i was started in.
	const folders = (env.PATH ?? env.Path ?? '').split(delimiter).filter(folder => folder !== '' && isAbsolute(folder));
	const names = process.platform === 'win32' ? windowsNames(program, env) : [program];
	for (const folder of folders) {
		for (const name of names) {
			const candidate = join(folder, name);
			if (programProblem(candidate) === null) return candidate;
		}
	}

	throw new UsageError(`${where}: exec[0] "${program}" is not an executable program on PATH; install it, fix PATH, or give its path (a name with "/" resolves against "cwd")`);
}

/** Windows runs `name` as `name.EXE`, `name.CMD` … unless it already has an extension. */
function windowsNames(program: string, env: NodeJS.ProcessEnv): string[] {
	const extensions = (env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean);
	return /\.[^.\\/]+$/.test(program) ? [program] : extensions.map(extension => program + extension);
}

function describeMissing(error: unknown): string {
	const code = (error as NodeJS.ErrnoException).code;
	return code === 'ENOENT' || code === 'ENOTDIR' ? 'does not exist' : `cannot be read (${code ?? String(error)})`;
}
