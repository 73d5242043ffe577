/**
 * `i --provider-action VERB …` (spec/platform.md §4): the remote management of the
 * files the DeepSeek Files channel uploaded, a channel of its own beside
 * the chat: never a tool, never reached by a model.
 *
 *   list [--remote]   the workspace's registry (local, no network); with --remote also the account's files
 *   delete ID         delete one file on the provider, after a confirmation on the terminal; sent once, never retried
 *   prune             drop the registry entries of expired files (local only)
 *
 * A DELETE always asks on the terminal, `--yolo` or not. Without a terminal
 * it is refused unless `--confirm-delete` (its own flag, which `--yolo`
 * does not stand for) says yes in advance. The remote verbs need both
 * authorisations the channel needs (provider.json's `"images": "files"`
 * and the API config's `"provider_operations": true`).
 */
import type {AnyFlags} from 'meow';
import {parseCommandLine} from '../command-line/parse-command-line.js';
import {checkedDirs} from '../core/config/checked-dirs.js';
import type {PlatformDirs} from '../core/config/dirs.js';
import {configPath, loadModelConfig} from '../core/config/load-config.js';
import {runCredential} from '../core/auth/run-credential.js';
import {DEEPSEEK_PROVIDER, filesChannelAuthorised, loadProviderFile} from '../core/config/provider-file.js';
import {findWorkspaceId} from '../core/config/workspace-registry.js';
import {errorMessage, exitCodes, UsageError} from '../core/errors.js';
import {nearestName} from '../core/nearest-name.js';
import {ProviderError} from '../core/providers/errors.js';
import {endpoint} from '../core/providers/deepseek-files/channel.js';
import {filesRequest} from '../core/providers/deepseek-files/files-http.js';
import {FileRegistry, isExpired, registryPath, type RegistryEntry} from '../core/providers/deepseek-files/registry.js';
import {FILE_ID_PATTERN, deletedSchema, fileListSchema, filePath, listPath, type FileObject} from '../core/providers/deepseek-files/wire.js';
import {DEEPSEEK_BASE_URL} from '../core/providers/deepseek.js';
import {workspaceFolder} from './workspace-folder.js';

const flags = {
	cwd: {type: 'string', shortFlag: 'C'},
	config: {type: 'string'},
	json: {type: 'boolean', default: false},
	remote: {type: 'boolean', default: false},
	confirmDelete: {type: 'boolean', default: false},
	// Taken so it can be told it does nothing here: it never confirms a DELETE.
	yolo: {type: 'boolean', aliases: ['dangerously-skip-permissions'], default: false},
} satisfies AnyFlags;

export const providerActions = ['list', 'delete', 'prune'] as const;

/** `list --remote` reads at most this many of the account's files (ten pages). */
export const MAX_REMOTE_FILES = 10_000;

/** The longest confirmation answer read: a line typed at a terminal. */
const MAX_ANSWER_BYTES = 1024;

export interface ActionIo {
	stdin: NodeJS.ReadStream;
	stdout: NodeJS.WritableStream;
	stderr: NodeJS.WriteStream;
}

const processIo = (): ActionIo => ({stdin: process.stdin, stdout: process.stdout, stderr: process.stderr});

/** `i --provider-action …`: the arguments after the flag; returns the exit code. */
export async function runProviderAction(args: string[], io: ActionIo = processIo()): Promise<number> {
	const [verb, ...rest] = args;
	try {
		if (verb === undefined || !(providerActions as readonly string[]).includes(verb)) {
			const guess = verb === undefined ? undefined : nearestName(verb, providerActions);
			const got = verb === undefined ? '' : ` (not "${verb}"${guess === undefined ? '' : `; did you mean ${guess}?`})`;
			throw new UsageError(`needs an action: ${providerActions.join(', ')}${got}`);
		}

		const parsed = parseCommandLine(rest, {flags, takesInput: verb === 'delete'});
		const options = parsed.flags;
		if (verb !== 'delete' && options.confirmDelete) throw new UsageError('--confirm-delete belongs to delete');
		if (verb !== 'list' && options.remote) throw new UsageError('--remote belongs to list');
		const dirs = checkedDirs();
		const workspace = await workspaceFolder(options.cwd ?? '.').catch((error: unknown) => {
			throw new UsageError(errorMessage(error));
		});
		const context: Context = {dirs, workspace, config: options.config, json: options.json, io};
		if (verb === 'list') return await list(context, options.remote);
		if (verb === 'prune') return await prune(context);
		if (parsed.input.length !== 1) throw new UsageError(`delete takes one file ID (got ${parsed.input.length === 0 ? 'none' : parsed.input.join(' ')})`);
		return await remove(context, parsed.input[0]!, {confirmed: options.confirmDelete, yolo: options.yolo});
	} catch (error) {
		io.stderr.write(`i: --provider-action${verb === undefined ? '' : ` ${verb}`}: ${errorMessage(error)}\n`);
		return error instanceof UsageError ? exitCodes.usage : exitCodes.turnFailed;
	}
}

interface Context {
	dirs: PlatformDirs;
	workspace: string;
	config: string | undefined;
	json: boolean;
	io: ActionIo;
}

/** The workspace's registry; undefined for a workspace never used (it has no state folder, so no uploads). */
async function registryOf(context: Context): Promise<FileRegistry | undefined> {
	const id = await findWorkspaceId(context.workspace, context.dirs);
	return id === undefined ? undefined : new FileRegistry(registryPath(context.dirs, id));
}

type RemoteAccess = {baseUrl: string; headers: Record<string, string>; maxRetries: number};

/** What a remote verb needs: both authorisations, the endpoint and the key's header, as the run's own requests have them (by protocol or by catalogue). */
async function remoteAccess(context: Context): Promise<RemoteAccess> {
	const loaded = loadModelConfig(configPath(context.config, context.dirs.config_dir), context.config !== undefined);
	const provider = loadProviderFile(context.dirs);
	if (!filesChannelAuthorised(loaded, provider)) {
		throw new UsageError(`the Files channel is off: it needs "images": "files" in ${provider.path} and "provider_operations": true in ${loaded.path} (the remote actions act on the files it uploads)`);
	}

	const maxRetries = loaded.config.max_retries;
	if (loaded.config.protocol === undefined) {
		// "provider": "deepseek": the catalogue's endpoint, headers and key, as a run in this workspace binds them (--api-key aside: these verbs do not take it).
		const [{loadRunCatalogue}, {credentialFor}] = await Promise.all([import('./run-catalogue.js'), import('../core/catalogue/credential-for.js')]);
		const binding = (await loadRunCatalogue({cwd: context.workspace}, () => {})).bindings.get(DEEPSEEK_PROVIDER);
		if (!binding) throw new UsageError(`the catalogue has no "${DEEPSEEK_PROVIDER}" provider here (was the provider package removed?), so the remote actions have no endpoint`);
		const {apiKey} = credentialFor(binding, {configDir: context.dirs.config_dir});
		return {baseUrl: binding.baseUrl ?? DEEPSEEK_BASE_URL, headers: {...binding.headers, authorization: `Bearer ${apiKey ?? ''}`}, maxRetries};
	}

	// The key the run's own requests would use, resolved the same way (--api-key aside: these verbs do not take it).
	const {key} = runCredential(loaded, {hostSendsKey: true, configDir: context.dirs.config_dir});
	return {baseUrl: loaded.config.base_url ?? DEEPSEEK_BASE_URL, headers: {authorization: `Bearer ${key}`}, maxRetries};
}

async function list(context: Context, remote: boolean): Promise<number> {
	// The remote listing's authorisation is checked before anything is read.
	const access = remote ? await remoteAccess(context) : undefined;
	const registry = await registryOf(context);
	const entries = registry ? await registry.entries() : [];
	const files = access ? await remoteFiles(access) : null;
	const now = Date.now();
	if (context.json) {
		const shown = entries.map(entry => ({...entry, expired: isExpired(entry, now)}));
		context.io.stdout.write(`${JSON.stringify({workspace: context.workspace, registry: registry?.path ?? null, files: shown, remote: files})}\n`);
		return exitCodes.ok;
	}

	const lines = [`registry: ${registry ? registry.path : 'none (this workspace was never used)'}`];
	if (entries.length === 0) lines.push('  no files recorded');
	for (const entry of entries) lines.push(`  ${entry.id}  ${entry.name}  ${entry.size} bytes  created ${entry.created}  ${expiry(entry, now)}  scope ${entry.account_scope}`);
	if (files) {
		const known = new Set(entries.map(entry => entry.id));
		lines.push(`remote: ${files.length} file${files.length === 1 ? '' : 's'}`);
		for (const file of files) {
			const expires = file.expires_at === undefined || file.expires_at === null ? 'never expires' : `expires ${new Date(file.expires_at * 1000).toISOString()}`;
			lines.push(`  ${file.id}  ${file.filename}  ${file.bytes} bytes  created ${new Date(file.created_at * 1000).toISOString()}  ${expires}${known.has(file.id) ? '  (in the registry)' : ''}`);
		}
	}

	context.io.stdout.write(`${lines.join('\n')}\n`);
	return exitCodes.ok;
}

function expiry(entry: RegistryEntry, now: number): string {
	if (entry.expires === null) return 'never expires';
	return isExpired(entry, now) ? `expired ${entry.expires}` : `expires ${entry.expires}`;
}

/** The account's files, page by page, up to MAX_REMOTE_FILES. GETs change nothing, so they are retried like model requests. */
async function remoteFiles(access: RemoteAccess): Promise<FileObject[]> {
	const files: FileObject[] = [];
	let after: string | undefined;
	while (files.length < MAX_REMOTE_FILES) {
		const page = await filesRequest(
			{method: 'GET', url: endpoint(access.baseUrl, listPath(after)), headers: access.headers, retry: 'idempotent', what: 'deepseek files: list', options: {maxRetries: access.maxRetries}},
			fileListSchema,
		);
		files.push(...page.data);
		const last = page.data.at(-1)?.id;
		if (!page.has_more || last === undefined || last === after) break;
		after = last;
	}

	return files.slice(0, MAX_REMOTE_FILES);
}

async function prune(context: Context): Promise<number> {
	const registry = await registryOf(context);
	const pruned = registry ? await registry.pruneExpired(Date.now()) : [];
	if (context.json) context.io.stdout.write(`${JSON.stringify({registry: registry?.path ?? null, pruned: pruned.map(entry => entry.id)})}\n`);
	else
		context.io.stdout.write(
			`${pruned.length === 0 ? 'no expired entries' : `dropped ${pruned.length} expired entr${pruned.length === 1 ? 'y' : 'ies'}: ${pruned.map(entry => entry.id).join(', ')}`} (local only: the provider removed expired files itself)\n`,
		);
	return exitCodes.ok;
}

async function remove(context: Context, id: string, options: {confirmed: boolean; yolo: boolean}): Promise<number> {
	if (!FILE_ID_PATTERN.test(id)) throw new UsageError(`"${id.slice(0, 80)}" is not a file ID (1–128 of A-Z a-z 0-9 _ . -)`);
	const access = await remoteAccess(context);
	const registry = await registryOf(context);
	const entry = (await registry?.entries())?.find(file => file.id === id);
	const {io} = context;
	if (options.yolo) io.stderr.write('i: --yolo lets tools run without asking; it never confirms a provider DELETE\n');
	const terminal = io.stdin.isTTY === true && io.stderr.isTTY === true;
	if (terminal) {
		const what = entry ? `${id} (${entry.name}, ${entry.size} bytes, uploaded ${entry.created})` : `${id} (not in this workspace's registry)`;
		io.stderr.write(`Delete ${what} from the provider account? It cannot be undone. Type yes to delete: `);
		const answer = await readAnswer(io.stdin);
		if (answer === null || !/^(y|yes)$/i.test(answer.trim())) {
			io.stderr.write(`${answer === null ? '\n' : ''}not deleted\n`);
			return exitCodes.turnFailed;
		}
	} else if (!options.confirmed) {
		throw new UsageError(`no terminal to confirm on: a DELETE always asks, so without a terminal it needs --confirm-delete (--yolo does not stand for it); nothing was deleted`);
	}

	try {
		await filesRequest({method: 'DELETE', url: endpoint(access.baseUrl, filePath(id)), headers: access.headers, retry: 'never', what: `deepseek files: delete ${id}`}, deletedSchema);
	} catch (error) {
		if (error instanceof ProviderError && error.status === 404) {
			// Gone already (deleted elsewhere, or expired): the registry should not promise it any longer.
			const dropped = (await registry?.remove(id)) ?? false;
			throw new ProviderError(`${error.message}; nothing was deleted${dropped ? `, and its entry was dropped from ${registry!.path}` : ''}`, {kind: 'http', status: 404});
		}

		throw new ProviderError(`${errorMessage(error)}; a DELETE is never retried: check with i --provider-action list --remote and delete again if it is still there`, {kind: 'http'});
	}

	const dropped = (await registry?.remove(id)) ?? false;
	io.stdout.write(`deleted ${id} from the provider${dropped ? `; dropped it from ${registry!.path}` : ''}\n`);
	return exitCodes.ok;
}

/** One line from the terminal, or null at EOF (Ctrl-D) before a newline. */
async function readAnswer(stdin: NodeJS.ReadStream): Promise<string | null> {
	return new Promise(resolve => {
		let text = '';
		const finish = (value: string | null) => {
			stdin.off('data', onData);
			stdin.off('end', onEnd);
			stdin.pause();
			resolve(value);
		};

		const onData = (chunk: Buffer | string) => {
			text += chunk.toString();
			const newline = text.indexOf('\n');
			if (newline !== -1) finish(text.slice(0, newline));
			else if (text.length > MAX_ANSWER_BYTES) finish('');
		};

		const onEnd = () => finish(null);
		stdin.on('data', onData);
		stdin.on('end', onEnd);
		stdin.resume();
	});
}
