import {lstat, mkdir} from 'node:fs/promises';
import {join, resolve} from 'node:path';
import {AUTH_DIR_MODE} from '../core/auth/auth-file.js';
import {resolveDirs} from '../core/config/dirs.js';
import {configPath} from '../core/config/load-config.js';
import {errorMessage, exitCodes} from '../core/errors.js';
import {writeFileAtomic} from '../core/fs/atomic-write.js';
import {BINDINGS_FILE} from '../core/plugins/bindings.js';
import {BUILTIN_FILE, defaultBuiltinDescriptor} from '../core/plugins/builtin-descriptor.js';
import {readJsonFile} from '../core/plugins/read-json-file.js';
import {defaultSelection, SELECTION_FILE} from '../core/plugins/selection.js';
import {writeErr, writeOut} from '../shared/output.js';

/** What a person fills in before the first run; each with what it means and an example. */
const modelFields = [
	['protocol', '"openai", "deepseek", "anthropic" or "responses"', '"deepseek"'],
	['model', 'the model name', '"deepseek-flash"'],
	['api_key_env', 'the NAME of the environment variable holding the API key (never the key)', '"DEEPSEEK_API_KEY"'],
] as const;

/**
 * `i --runtime init`: writes the plugin files of spec/platform.md §1 into the config
 * folder (the portable selection, this machine's bindings, the dynamic
 * builtin descriptor) and, when there is no config.json, one that loads
 * builtin.json. An existing file is never overwritten.
 */
export async function runCommand(args: string[]): Promise<number> {
	if (args.length > 0) {
		writeErr(`i: --runtime init takes no arguments (got ${args.join(' ')})\n`);
		return exitCodes.usage;
	}

	try {
		const dir = resolveDirs().config_dir;
		await writeProfileFiles(dir, line => writeOut(`${line}\n`));
		const config = configPath(undefined, dir);
		if (await createOnce(config, {plugins: [BUILTIN_FILE]}, line => writeOut(`${line}\n`))) {
			const width = Math.max(...modelFields.map(([name]) => name.length)) + 2;
			writeOut(
				`\nFill in the model in ${config} before running i:\n` +
					modelFields.map(([name, meaning, example]) => `  "${name}"`.padEnd(width + 4) + `${meaning}, e.g. ${example}\n`).join('') +
					`("base_url" is optional: the provider's default endpoint otherwise.)\n` +
					`Or choose by catalogue instead of those three: "provider" (a catalogue provider such as "deepseek") and "model";\n` +
					`the catalogue gives the endpoint and the key's variable (i --list-models lists them; never both ways in one config).\n`,
			);
		} else if (!(await listsBuiltin(config, join(dir, BUILTIN_FILE)))) {
			writeOut(`\n${config} does not list "${BUILTIN_FILE}" in "plugins"; add it there to run the configured plugin profile.\n`);
		}

		return exitCodes.ok;
	} catch (error) {
		writeErr(`i: --runtime init: ${errorMessage(error)}\n`);
		return exitCodes.usage;
	}
}

/** The plugin files of the init profile (spec/platform.md §1), by name, with what a fresh one holds. */
export const PROFILE_FILES: ReadonlyArray<readonly [string, unknown]> = [
	[SELECTION_FILE, defaultSelection],
	[BINDINGS_FILE, {}],
	[BUILTIN_FILE, defaultBuiltinDescriptor],
];

/**
 * The part of `i --runtime init` a caller in the same process can run (the
 * chat screen's first-run setup): the plugin files in `dir`, each created
 * only when missing (never overwritten), one line each to `report`.
 * Resolves with the paths it created; a failure (the folder cannot be
 * written) rejects with the file system's error, the files made before it kept.
 */
export async function writeProfileFiles(dir: string, report: (line: string) => void = () => {}): Promise<string[]> {
	// The config folder holds auth.json, which is refused in a folder others can write to.
	await mkdir(dir, {recursive: true, mode: AUTH_DIR_MODE});
	const created: string[] = [];
	for (const [name, content] of PROFILE_FILES) if (await createOnce(join(dir, name), content, report)) created.push(join(dir, name));
	return created;
}

/** Writes `content` as JSON unless `path` exists; says which it did. Returns whether it wrote. */
async function createOnce(path: string, content: unknown, report: (line: string) => void): Promise<boolean> {
	if (await exists(path)) {
		report(`kept    ${path} (it exists)`);
		return false;
	}

	try {
		// Exclusive: a file another process made since the check above is kept too.
		await writeFileAtomic(path, `${JSON.stringify(content, null, 2)}\n`, {exclusive: true});
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
		report(`kept    ${path} (it exists)`);
		return false;
	}

	report(`created ${path}`);
	return true;
}

async function exists(path: string): Promise<boolean> {
	try {
		await lstat(path);
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
		throw error;
	}
}

/** Whether an existing config's `plugins` names the builtin descriptor; an unreadable config is left to the next start to report. */
async function listsBuiltin(config: string, builtin: string): Promise<boolean> {
	try {
		const plugins = ((await readJsonFile(config, `config ${config}`)) as {plugins?: unknown} | null)?.plugins;
		return Array.isArray(plugins) && plugins.some(entry => typeof entry === 'string' && resolve(config, '..', entry) === builtin);
	} catch {
		return true;
	}
}
