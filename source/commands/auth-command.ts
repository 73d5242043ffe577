import {existsSync} from 'node:fs';
import type {AnyFlags} from 'meow';
import {parseCommandLine} from '../command-line/parse-command-line.js';
import {AuthFile, AUTH_FILE_MODE, type StoredCredential} from '../core/auth/auth-file.js';
import {configAuthSubject} from '../core/auth/auth-subjects.js';
import {resolveCredential, type AuthSubject} from '../core/auth/resolve-credential.js';
import {checkedDirs} from '../core/config/checked-dirs.js';
import {configPath, loadModelConfig, type LoadedConfig} from '../core/config/load-config.js';
import {runSelection} from '../core/catalogue/run-selection.js';
import {errorMessage, exitCodes, UsageError} from '../core/errors.js';
import {nearestName} from '../core/nearest-name.js';
import {authHelpText, helpOutput} from '../help.js';
import {writeErr as writeStderr, writeOut as writeStdout} from '../shared/output.js';
import {readSecret, type SecretInput, MAX_SECRET_BYTES} from './read-secret.js';
import type {AuthProviders} from './run-catalogue.js';
import {checkTypedKey} from './typed-key.js';

const checkFlags = {
	config: {type: 'string'},
	apiKey: {type: 'string'},
	provider: {type: 'string'},
	model: {type: 'string'},
	json: {type: 'boolean', default: false},
} satisfies AnyFlags;

const changeFlags = {
	config: {type: 'string'},
	json: {type: 'boolean', default: false},
} satisfies AnyFlags;

const loginFlags = {
	...changeFlags,
	device: {type: 'boolean', default: false},
	browser: {type: 'boolean', default: true},
} satisfies AnyFlags;

const subcommands = ['check', 'login', 'logout'] as const;

/** `i auth check` exits: ready, missing credentials, configuration error (spec/extensions.md §11). */
export const authCheckExit = {ready: exitCodes.ok, missing: 1, config: exitCodes.usage} as const;

/** What the command takes besides its arguments; the defaults are the process's own. */
export interface AuthCommandIo {
	/**
	 * The providers it knows, given the config's own protocol selection
	 * (undefined without one): the built-in catalogue's by default; a run's
	 * whole catalogue (declare({providers}), models.json) when it is connected.
	 */
	catalogue?: (selected: AuthSubject | undefined) => AuthProviders | Promise<AuthProviders>;
	env?: NodeJS.ProcessEnv;
	stdin?: SecretInput;
	/** Where the result line goes (stdout) and where errors and the prompt go (stderr). */
	out?: (text: string) => void;
	err?: (text: string) => void;
}

/**
 * `i auth check [PROVIDER] [--provider ID] [--model ID] [--api-key KEY] [--config FILE] [--json]`,
 * `i auth login PROVIDER`, `i auth logout PROVIDER`. Local state only: no
 * request, no token refresh. Check exits 0 ready, 1 missing credentials,
 * 2 configuration error, with one line naming the source that would be
 * used or what was tried; login and logout exit 0 done, 2 usage or
 * configuration error, 130 cancelled.
 */
export async function runAuth(args: string[], io: AuthCommandIo = {}): Promise<number> {
	const [word, ...rest] = args;
	const writeOut = io.out ?? writeStdout;
	const writeErr = io.err ?? writeStderr;
	if (word === '--help' || word === '-h' || rest.includes('--help') || rest.includes('-h')) {
		writeOut(helpOutput(authHelpText));
		return exitCodes.ok;
	}

	try {
		const complete = {...io, out: writeOut, err: writeErr};
		switch (word) {
			case 'check': {
				return await check(rest, complete);
			}

			case 'login': {
				return await login(rest, complete);
			}

			case 'logout': {
				return await logout(rest, complete);
			}

			default: {
				const guess = word === undefined ? undefined : nearestName(word, subcommands);
				const what = word === undefined ? 'name what to do' : `unknown auth command "${word}"${guess === undefined ? '' : ` (did you mean i auth ${guess}?)`}`;
				throw new UsageError(`${what}: i auth check [PROVIDER], i auth login PROVIDER or i auth logout PROVIDER; see i auth --help`);
			}
		}
	} catch (error) {
		if (!(error instanceof UsageError)) throw error;
		writeErr(`i: auth${word !== undefined && (subcommands as readonly string[]).includes(word) ? ` ${word}` : ''}: ${errorMessage(error)}\n`);
		return exitCodes.usage;
	}
}

/** The io with its writers chosen. */
type Io = AuthCommandIo & Required<Pick<AuthCommandIo, 'out' | 'err'>>;

/** The providers known, auth.json, and the config when there is one. */
interface Setting {
	catalogue: AuthProviders;
	loaded: LoadedConfig | undefined;
	store: AuthFile;
	env: NodeJS.ProcessEnv;
}

/**
 * A missing default config is no error when a provider is named (`i auth
 * login deepseek` before any config) or `--provider` / `--model` choose one
 * (as for a run); a broken one always is. `protocolSelection`: the config's
 * protocol subject counts for its provider id (the run's own when nothing
 * chooses by catalogue).
 */
async function setting(flags: {config?: string | undefined}, io: AuthCommandIo, need: {config: boolean; byFlags: boolean; protocolSelection: boolean}): Promise<Setting> {
	const dirs = checkedDirs();
	const path = configPath(flags.config, dirs.config_dir);
	const hasConfig = flags.config !== undefined || existsSync(path);
	if (!hasConfig && need.config) {
		throw new UsageError(`no model config: ${path} does not exist, so no provider is selected; name one (i auth check PROVIDER, --provider ID or --model ID) or pass --config FILE`);
	}

	const loaded = hasConfig || need.byFlags ? loadModelConfig(path, flags.config !== undefined, {selectedByFlags: need.byFlags}) : undefined;
	const byProtocol = need.protocolSelection && loaded?.config.protocol !== undefined ? configAuthSubject(loaded) : undefined;
	const catalogue = await (io.catalogue ?? builtinCatalogue)(byProtocol);
	return {catalogue, loaded, store: AuthFile.in(dirs.config_dir), env: io.env ?? process.env};
}

/** Without a connected catalogue: the built-in providers'. */
async function builtinCatalogue(selected: AuthSubject | undefined): Promise<AuthProviders> {
	const [{catalogueAuth}, {buildCatalogue}] = await Promise.all([import('./run-catalogue.js'), import('../core/catalogue/build-catalogue.js')]);
	return catalogueAuth(buildCatalogue([], []))(selected);
}

/** The subject of a named provider; an unknown id is a usage error listing the known ones. */
function subjectOf(id: string, catalogue: AuthProviders): AuthSubject {
	const subject = catalogue.lookup(id);
	if (subject) return subject;
	const ids = catalogue.ids();
	const guess = nearestName(id, ids);
	throw new UsageError(`unknown provider ${JSON.stringify(id)}${guess === undefined ? '' : ` (did you mean ${guess}?)`}; the known providers are ${ids.join(', ')}`);
}

function oneProvider(input: string[], usage: string, optional: boolean): string | undefined {
	if (input.length > 1) throw new UsageError(`takes one provider, not ${input.length} (${input.join(' ')}): ${usage}`);
	if (input.length === 0 && !optional) throw new UsageError(`name the provider: ${usage}`);
	return input[0];
}

/**
 * The provider a run with these flags would use, as the run picks it
 * (run-selection.ts, then the catalogue's resolution), or the config's
 * protocol subject. PROVIDER is `--provider PROVIDER`; alone it is looked
 * up without a model (the config's own subject when it is the config's
 * protocol's provider). --api-key is that provider's, as in the run.
 */
async function checkedSubject(flags: {config?: string | undefined; provider?: string | undefined; model?: string | undefined}, named: string | undefined, io: Io): Promise<Setting & {subject: AuthSubject}> {
	if (named !== undefined && flags.provider !== undefined && named !== flags.provider) throw new UsageError(`PROVIDER "${named}" and --provider "${flags.provider}" differ: give one of them`);
	const provider = flags.provider ?? named;
	const byFlags = flags.provider !== undefined || flags.model !== undefined;
	const found = await setting(flags, io, {config: provider === undefined && !byFlags, byFlags, protocolSelection: !byFlags});
	const {catalogue, loaded} = found;
	if (named !== undefined && !byFlags) return {...found, subject: subjectOf(named, catalogue)};
	const selection = runSelection({provider, model: flags.model}, loaded!);
	if (selection === undefined) return {...found, subject: configAuthSubject(loaded!)};
	return {...found, subject: subjectOf(await catalogue.select(selection), catalogue)};
}

async function check(args: string[], io: Io): Promise<number> {
	const {out: writeOut, err: writeErr} = io;
	const {flags, input} = parseCommandLine(args, {flags: checkFlags, takesInput: true, secretFlags: ['apiKey']});
	const named = oneProvider(input, 'i auth check [PROVIDER] [--provider ID] [--model ID]', true);
	const {subject, store, env} = await checkedSubject(flags, named, io);
	const resolved = resolveCredential(subject, {apiKeyFlag: flags.apiKey, store, env});
	if (flags.json) {
		const report = resolved.ok
			? {provider: subject.provider, ready: true, source: resolved.source, detail: resolved.detail, skipped: resolved.skipped}
			: {provider: subject.provider, ready: false, problem: resolved.kind, reason: resolved.reason};
		writeOut(`${JSON.stringify(report)}\n`);
	} else if (resolved.ok) {
		const how = resolved.source === 'anonymous' ? `ready without a key (${subject.provider} allows requests without one)` : `ready, the key comes from ${resolved.detail}`;
		const skipped = resolved.skipped.length === 0 ? '' : `; skipped: ${resolved.skipped.join('; ')}`;
		writeOut(`${subject.provider}: ${how}${skipped}\n`);
	} else if (resolved.kind === 'missing') {
		writeOut(`${resolved.reason}\n`);
	} else {
		writeErr(`i: auth check: ${resolved.reason}\n`);
	}

	return resolved.ok ? authCheckExit.ready : authCheckExit[resolved.kind];
}

async function login(args: string[], io: Io): Promise<number> {
	const {out: writeOut, err: writeErr} = io;
	const {flags, input} = parseCommandLine(args, {flags: loginFlags, takesInput: true});
	const provider = oneProvider(input, 'i auth login PROVIDER (the key is read from the terminal, or the first line of stdin)', false)!;
	const {catalogue, store} = await setting(flags, io, {config: false, byFlags: false, protocolSelection: true});
	const subject = subjectOf(provider, catalogue);
	// An extension's OAuth flow for it: sign in instead of typing a key (oauth-login.ts).
	const oauth = catalogue.oauthFlow(provider);
	if (oauth) return (await import('./oauth-login.js')).oauthLogin(provider, oauth, store, flags, io);
	if (flags.device || !flags.browser) throw new UsageError(`${flags.device ? '--device' : '--no-browser'}: no extension registers an OAuth flow for ${provider}; its login reads an API key`);
	if (!subject.requiresAuth) throw new UsageError(`${provider} allows requests without a key (requiresAuth is false): its client never sends one, so there is nothing to store`);
	// A broken or shared auth.json, or a folder others can write to, is said before the key is typed, not after.
	store.checkWritable();
	const read = await readSecret(`API key for ${provider} (typing is not shown; Enter ends, Ctrl-C cancels): `, io.stdin, {write: io.err});
	if (read.kind === 'cancelled') {
		writeErr(`i: auth login: cancelled; nothing was stored\n`);
		return exitCodes.interrupted;
	}

	if (read.kind === 'too-long') throw new UsageError(`the key is longer than ${MAX_SECRET_BYTES} bytes, which is no API key; nothing was stored`);
	const typed = checkTypedKey(read.value);
	if (!typed.ok) throw new UsageError(typed.reason);
	const {key} = typed;
	const previous = await store.store(provider, {type: 'api_key', key});
	const replaced = previous === undefined ? '' : ` (replacing the ${describeEntry(previous)} stored before)`;
	const mode = AUTH_FILE_MODE.toString(8).padStart(4, '0');
	if (flags.json) writeOut(`${JSON.stringify({provider, stored: store.path, replaced: previous?.type ?? null})}\n`);
	else writeOut(`stored the API key for ${provider} in ${store.path} (mode ${mode})${replaced}; runs that select ${provider} use it unless --api-key is given\n`);
	return exitCodes.ok;
}

async function logout(args: string[], io: Io): Promise<number> {
	const {out: writeOut} = io;
	const {flags, input} = parseCommandLine(args, {flags: changeFlags, takesInput: true});
	const provider = oneProvider(input, 'i auth logout PROVIDER', false)!;
	const {catalogue, store, env} = await setting(flags, io, {config: false, byFlags: false, protocolSelection: true});
	// An entry of a provider no longer known (its package removed) can still be removed.
	const subject = catalogue.lookup(provider) ?? (store.read().has(provider) ? {provider, requiresAuth: true} : subjectOf(provider, catalogue));
	const removed = await store.remove(provider);
	const after = resolveCredential(subject, {store, env});
	const still = after.ok ? (after.source === 'anonymous' ? `${provider} needs no key` : `${after.detail} still supplies a key for ${provider}`) : `${provider} now has no credentials`;
	if (flags.json) {
		writeOut(`${JSON.stringify({provider, removed: removed?.type ?? null, file: store.path, stillReady: after.ok, ...(after.ok ? {source: after.source, detail: after.detail} : {})})}\n`);
	} else {
		const what = removed === undefined ? `${store.path} has no entry for ${provider}; nothing was removed` : `removed the ${describeEntry(removed)} for ${provider} from ${store.path}`;
		writeOut(`${what}; environment variables and models.json are untouched: ${still}\n`);
	}

	return exitCodes.ok;
}

function describeEntry(entry: StoredCredential): string {
	return entry.type === 'api_key' ? 'API key' : 'OAuth token';
}
