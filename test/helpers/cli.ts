import {spawn, type ChildProcess} from 'node:child_process';
import {mkdtempSync, mkdirSync, writeFileSync, realpathSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

/** What a person runs: bin/i.js, which starts the headless bundle for every run without a terminal (all of runCli's). */
export const binPath = fileURLToPath(new URL('../../../bin/i.js', import.meta.url));
/** The ES module bundle bin/i.js runs for the chat screen, in the same compiled tree as this test (dist, or a private build). */
export const cliPath = fileURLToPath(new URL('../../bundle/cli.js', import.meta.url));
/** The unbundled compiled entry, where each source module is its own file. */
export const unbundledCliPath = fileURLToPath(new URL('../../source/cli.js', import.meta.url));

export interface CliRun {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

export interface Sandbox {
	/** A temp folder holding config/, data/, cache/, runtime/ and the workspace. */
	root: string;
	workspace: string;
	configDir: string;
	env: NodeJS.ProcessEnv;
	writeConfig(config: Record<string, unknown>): string;
}

/** A fresh, isolated set of platform folders and a workspace, with a fake API key. */
export function makeSandbox(): Sandbox {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-cli-')));
	const workspace = join(root, 'workspace');
	const configDir = join(root, 'config');
	mkdirSync(workspace);
	// Whatever the umask: auth.json is refused in a folder others can write to.
	mkdirSync(configDir, {mode: 0o700});
	const env: NodeJS.ProcessEnv = {
		PATH: process.env.PATH,
		HOME: root,
		I_CONFIG_DIR: configDir,
		I_DATA_DIR: join(root, 'data'),
		I_CACHE_DIR: join(root, 'cache'),
		I_RUNTIME_DIR: join(root, 'runtime'),
		TEST_API_KEY: 'sk-test-secret-123',
	};
	return {
		root,
		workspace,
		configDir,
		env,
		writeConfig(config) {
			const path = join(configDir, 'config.json');
			writeFileSync(path, JSON.stringify({api_key_env: 'TEST_API_KEY', ...config}, null, 2));
			return path;
		},
	};
}

/** An extension file `name` holding `source` in the sandbox's own `extensions` folder (made when missing), for `--extension`; its path. */
export function writeExtensionFile(box: Sandbox, name: string, source: string): string {
	const dir = join(box.root, 'extensions');
	mkdirSync(dir, {recursive: true});
	const file = join(dir, name);
	writeFileSync(file, source);
	return file;
}

export interface RunOptions {
	env?: NodeJS.ProcessEnv;
	cwd?: string;
	/** Written to stdin, which is then closed; `null` leaves stdin open and empty. */
	input?: string | null;
	timeoutMs?: number;
	/** Called once the child is running, e.g. to send it a signal. */
	onSpawn?: (child: ChildProcess, output: {stdout: () => string; stderr: () => string}) => void;
	/** Run this entry instead of bin/i.js. */
	entry?: string;
}

export function runCli(args: string[], options: RunOptions = {}): Promise<CliRun> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [options.entry ?? binPath, ...args], {
			cwd: options.cwd,
			env: options.env ?? {PATH: process.env.PATH},
			stdio: ['pipe', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', chunk => (stdout += chunk));
		child.stderr.setEncoding('utf8').on('data', chunk => (stderr += chunk));
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`i ${args.join(' ')} did not finish in ${options.timeoutMs ?? 20_000} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
		}, options.timeoutMs ?? 20_000);
		child.on('error', reject);
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			resolve({code, signal, stdout, stderr});
		});
		if (options.input !== null) child.stdin.end(options.input ?? '');
		options.onSpawn?.(child, {stdout: () => stdout, stderr: () => stderr});
	});
}

/** The JSON events of a `--json` run. */
export function jsonEvents(stdout: string): Array<Record<string, any>> {
	return stdout
		.split('\n')
		.filter(line => line.length > 0)
		.map(line => JSON.parse(line) as Record<string, any>);
}

/** Resolves when `predicate` holds for the output so far. */
export async function waitFor(check: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
	const start = Date.now();
	while (!check()) {
		if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
		await new Promise(resolve => setTimeout(resolve, 20));
	}
}
