import {dirname, join} from 'node:path';
import {AuthFile, AUTH_FILE_MODE, type CredentialStore} from '../core/auth/auth-file.js';
import {resolveCredential, type AuthSubject} from '../core/auth/resolve-credential.js';
import type {BuiltCatalogue} from '../core/catalogue/build-catalogue.js';
import {authSubjectOf} from '../core/catalogue/credential-for.js';
import {providerChoices, type ProviderChoice} from '../core/catalogue/provider-choices.js';
import {errorMessage} from '../core/errors.js';
import {writeFileAtomic} from '../core/fs/atomic-write.js';
import {readConfigFileSync} from '../core/fs/read-config-file.js';
import {MAX_CONFIG_BYTES} from '../core/config/load-config.js';
import {providerOfProtocol} from '../core/auth/auth-subjects.js';
import {BUILTIN_FILE} from '../core/plugins/builtin-descriptor.js';
import {writeProfileFiles} from '../commands/init.js';
import {checkTypedKey} from '../commands/typed-key.js';
import type {ChoiceOption, ChoiceRequest} from './brokers/chooser-broker.js';
import type {KeyRequest} from './brokers/key-broker.js';
import {modelOption} from './commands/model-picker.js';

/**
 * The chat screen's first-run setup (issue 16 item 5): with no model
 * configured, the person picks a provider of the catalogue, a model of it,
 * and where its key comes from; then the init profile's plugin files, a
 * typed key (auth.json) and config.json are written, and the chat starts
 * with that model. No React here: the screen lends its chooser and its key
 * field (FirstRunScreen), and every branch is tested without a terminal.
 */

/** What the flow asks of the screen. */
export interface FirstRunScreen {
	/** A list to choose from (the screen's ChoiceList); null: Esc. */
	choose(request: ChoiceRequest): Promise<string | null>;
	/** The key field (never drawn, never echoed); null: Esc. */
	askKey(request: KeyRequest): Promise<string | null>;
	/** A line in the transcript: what went wrong and what to do, or what was written. Never a key. */
	notice(level: 'info' | 'warning' | 'error', text: string): void;
}

export interface FirstRunPlace {
	/** `<config_dir>/config.json`, which does not exist yet (or, with `keyGone`, the config whose key is gone). */
	configPath: string;
	/** The config exists and chooses this provider, whose key no longer resolves: the choice is saved into it (save-model-choice.ts), and no plugin file is added. */
	keyGone?: {provider: string} | undefined;
	/** `<config_dir>`: auth.json and the plugin files go here. */
	configDir: string;
	env: NodeJS.ProcessEnv;
	/** The catalogue a run here would have (run-catalogue.ts); a broken models.json rejects. */
	loadCatalogue(): Promise<BuiltCatalogue>;
	/** Aborted when the person leaves (Ctrl-C) or a signal ends the run: the screen cancels what it shows, and the flow ends. */
	signal: AbortSignal;
	/** `i --runtime init`'s plugin files (init.ts); a test may put a failing one here. */
	writeProfile?: (dir: string) => Promise<string[]>;
}

export type FirstRunOutcome =
	| {
			kind: 'configured';
			provider: string;
			model: string;
			/** `written`: config.json holds the choice; `appeared`: another process wrote one meanwhile; `kept`: a config whose key was gone chooses that provider by protocol, and the key now resolves for it. The last two are used as they are. */
			config: 'written' | 'appeared' | 'kept';
			/** Every file this setup created or changed, in order. */
			written: string[];
	  }
	/** Esc on the first step, Ctrl-C, or a signal; `written` says what a failed later step had written already. */
	| {kind: 'left'; built: BuiltCatalogue | undefined; written: string[]};

/** What config.json is made of: the choice, and the init profile (`i --runtime init` writes the same `plugins`). */
export function firstRunConfig(choice: {provider: string; model: string}): Record<string, unknown> {
	return {provider: choice.provider, model: choice.model, plugins: [BUILTIN_FILE]};
}

/** config.json holds no secret, but it is the person's own file beside auth.json: written as the auth code writes its files. */
export const FIRST_RUN_CONFIG_MODE = AUTH_FILE_MODE;

const RETRY: ChoiceOption = {value: 'retry', label: 'try again', description: 'once it is fixed'};

type Step =
	| {name: 'catalogue'}
	| {name: 'provider'}
	| {name: 'model'; provider: ProviderChoice}
	| {name: 'key'; provider: ProviderChoice; model: string}
	| {name: 'type'; provider: ProviderChoice; model: string}
	| {name: 'save'; provider: ProviderChoice; model: string; typed: string | undefined};

/** Runs the setup to its end: configured, or left. Never throws for a file or a catalogue: each problem is a notice and a step to retry or go back from. */
export async function runFirstRunSetup(place: FirstRunPlace, screen: FirstRunScreen): Promise<FirstRunOutcome> {
	const store = AuthFile.in(place.configDir);
	const written: string[] = [];
	let built: BuiltCatalogue | undefined;
	let step: Step = {name: 'catalogue'};
	const left = (): FirstRunOutcome => ({kind: 'left', built, written});
	for (;;) {
		if (place.signal.aborted) return left();
		// A copy the switch narrows: each case sets the next step.
		const current: Step = step;
		switch (current.name) {
			case 'catalogue': {
				try {
					built = await place.loadCatalogue();
					step = {name: 'provider'};
				} catch (error) {
					screen.notice('error', `the setup cannot list the providers: the catalogue could not be read (${errorMessage(error)}); fix the file it names, then choose "try again"`);
					if ((await screen.choose({title: 'Set up i: the catalogue could not be read', options: [RETRY], escape: 'leave'})) === null) return left();
				}

				break;
			}

			case 'provider': {
				const choices = setupOrder(providerChoices(built!, {configDir: place.configDir, env: place.env}).filter(choice => choice.models.length > 0));
				if (choices.length === 0) {
					screen.notice('error', `the catalogue has no provider with a model; add one in ${join(place.configDir, 'models.json')} (docs/providers.md, "models.json"), then choose "try again"`);
					if ((await screen.choose({title: 'Set up i: no provider to choose', options: [RETRY], escape: 'leave'})) === null) return left();
					step = {name: 'catalogue'};
					break;
				}

				const id = await screen.choose({
					title: `Set up i · 1 of 3: a provider (${place.keyGone ? `the key for ${place.keyGone.provider}, which ${place.configPath} chooses, is gone` : `${place.configPath} does not exist yet`})`,
					options: choices.map(choice => providerOption(choice, built!)),
					legend: '● key ready',
					escape: 'leave',
				});
				if (id === null) return left();
				step = {name: 'model', provider: choices.find(choice => choice.id === id)!};
				break;
			}

			case 'model': {
				const provider: ProviderChoice = current.provider;
				const model = await screen.choose({
					title: `Set up i · 2 of ${provider.needsKey ? 3 : 2}: a model of ${provider.id}`,
					options: provider.models.map(entry => modelOption(entry.id, entry, false)),
					escape: 'go back',
				});
				if (model === null) step = {name: 'provider'};
				else step = provider.needsKey ? {name: 'key', provider, model} : {name: 'save', provider, model, typed: undefined};
				break;
			}

			case 'key': {
				const provider: ProviderChoice = current.provider;
				const model: string = current.model;
				const sources = keySources(provider, built!, store, place.env);
				if (sources.problem !== undefined) screen.notice('error', sources.problem);
				const answer = await screen.choose({title: `Set up i · 3 of 3: the key for ${provider.id}`, options: sources.options, legend: sources.legend, escape: 'go back'});
				if (answer === null) step = {name: 'model', provider};
				else if (answer === 'type') step = {name: 'type', provider, model};
				else step = {name: 'save', provider, model, typed: undefined};
				break;
			}

			case 'type': {
				const provider: ProviderChoice = current.provider;
				const model: string = current.model;
				const typed = await screen.askKey({
					title: `Set up i · 3 of 3: the API key for ${provider.id}`,
					hint: `stored in ${store.path} (mode 0600), as i auth login ${provider.id} does; never in config.json, never shown`,
				});
				if (typed === null) {
					step = {name: 'key', provider, model};
					break;
				}

				const checked = checkTypedKey(typed);
				if (!checked.ok) {
					screen.notice('warning', `${checked.reason}; type it again, or Esc to go back`);
					break;
				}

				step = {name: 'save', provider, model, typed: checked.key};
				break;
			}

			case 'save': {
				const provider: ProviderChoice = current.provider;
				const model: string = current.model;
				const typed: string | undefined = current.typed;
				const saved = await save(place, store, {provider: provider.id, model}, typed, written);
				if (saved.ok) {
					if (saved.appeared) screen.notice('warning', `${place.configPath} appeared while the setup ran (another i?); it is used as it is, and ${provider.id}/${model} was not saved in it`);
					return {kind: 'configured', provider: provider.id, model, config: saved.appeared ? 'appeared' : saved.kept ? 'kept' : 'written', written};
				}

				screen.notice('error', `${saved.problem}; nothing else was written. Fix it, then choose "try again" (Esc goes back a step)`);
				const retry = await screen.choose({title: 'Set up i: the choice could not be saved', options: [RETRY], escape: 'go back'});
				// The typed key stays for "try again"; going back lets it go (nothing of it was stored).
				if (retry === null) step = provider.needsKey ? {name: 'key', provider, model} : {name: 'model', provider};
				break;
			}
		}
	}
}

/** Those whose key resolves first, then the anonymous ones (a local server, which may not be running), then the rest; each group in catalogue order. */
function setupOrder(choices: readonly ProviderChoice[]): ProviderChoice[] {
	const rank = (choice: ProviderChoice) => (!choice.needsKey ? 1 : choice.ready ? 0 : 2);
	return [...choices].sort((a, b) => rank(a) - rank(b));
}

/** A provider as the first step offers it: marked when its key resolves now, saying where it would come from or which variable to export. */
function providerOption(choice: ProviderChoice, built: BuiltCatalogue): ChoiceOption {
	const models = `${choice.models.length} model${choice.models.length === 1 ? '' : 's'}`;
	const variable = keyVariable(built, choice.id);
	const auth = !choice.needsKey ? 'no key needed (a local server: it must be running)' : choice.ready ? choice.auth : `no key yet: export ${variable ?? 'its key variable'} or type it in step 3`;
	return {value: choice.id, label: choice.id, description: `${models} · ${auth}`, marked: choice.ready && choice.needsKey};
}

/** The variable a provider's key is read from: models.json's `apiKey` before the declared one (resolve-credential.ts's order). */
function keyVariable(built: BuiltCatalogue, provider: string): string | undefined {
	const binding = built.bindings.get(provider);
	return binding?.modelsJsonKeyEnv ?? binding?.apiKeyEnv;
}

/** No stored key: what resolution would find in the environment alone. */
const noStore = (path: string): CredentialStore => ({path, read: () => new Map()});

/**
 * The third step's options, in the order auth resolves them: the key in
 * auth.json (when there is a usable one; it wins over any variable), the
 * variable (only when it is set), and typing it now. A broken or shared
 * auth.json offers neither of its options and says why.
 */
function keySources(provider: ProviderChoice, built: BuiltCatalogue, store: AuthFile, env: NodeJS.ProcessEnv): {options: ChoiceOption[]; legend?: string; problem?: string} {
	const binding = built.bindings.get(provider.id);
	const subject: AuthSubject = binding ? authSubjectOf(binding) : {provider: provider.id, requiresAuth: true};
	const variables = [subject.modelsJsonKeyEnv, subject.apiKeyEnv].filter((name): name is string => name !== undefined);
	const fromEnv = resolveCredential(subject, {store: noStore(store.path), env});
	const fromStore = resolveCredential(subject, {store, env: {}});
	const options: ChoiceOption[] = [];
	let problem: string | undefined;
	const stored = fromStore.ok && fromStore.source === 'auth.json';
	if (!fromStore.ok && fromStore.kind === 'config') problem = `${fromStore.reason}; until then a key cannot be stored there (export the variable instead)`;
	if (stored) options.push({value: 'auth', label: 'the key stored in auth.json', description: `${store.path} (${fromStore.detail})`, marked: true});
	const envSet = fromEnv.ok && (fromEnv.source === 'env' || fromEnv.source === 'models.json');
	if (envSet && !stored) options.push({value: 'env', label: `the environment variable ${variableOf(fromEnv.detail)}`, description: 'set now; read at each start, nothing is stored', marked: true});
	if (problem === undefined) {
		options.push({value: 'type', label: 'type or paste it now', description: `stored in ${store.path} (mode 0600)${stored ? ', replacing the key there' : ''}`});
	}

	const exportHint = variables.length === 0 || envSet ? undefined : `or leave (Ctrl-C), export ${variables[0]}=… and start i again`;
	const shadowed = stored && envSet ? `${variableOf(fromEnv.detail)} is set too, but the key in auth.json is used first` : undefined;
	const legend = [shadowed, exportHint].filter(part => part !== undefined).join(' · ');
	return {options, ...(legend === '' ? {} : {legend}), ...(problem === undefined ? {} : {problem})};
}

/** The variable's name from a resolution's detail (`DEEPSEEK_API_KEY (named by …)`). */
function variableOf(detail: string): string {
	return detail.split(' ')[0]!;
}

/**
 * The writes, each only once it is needed and in the order that leaves a
 * retry nothing to undo: the typed key (auth.json, atomically, under its
 * lock), the init profile's plugin files (created when missing), and last
 * config.json, created exclusively: until it exists the next start runs the
 * setup again, and one that appeared meanwhile is kept. A config whose key
 * is gone gets the choice written into it instead, everything else kept.
 */
async function save(
	place: FirstRunPlace,
	store: AuthFile,
	choice: {provider: string; model: string},
	typed: string | undefined,
	written: string[],
): Promise<{ok: true; appeared: boolean; kept?: boolean} | {ok: false; problem: string}> {
	const note = (path: string) => {
		if (!written.includes(path)) written.push(path);
	};

	if (typed !== undefined) {
		try {
			await store.store(choice.provider, {type: 'api_key', key: typed});
			note(store.path);
		} catch (error) {
			return {ok: false, problem: `the key could not be stored in ${store.path} (${errorMessage(error)}), so it was not: make ${dirname(store.path)} writable, or set I_CONFIG_DIR to a folder you can write`};
		}
	}

	if (place.keyGone) {
		try {
			// A config that chooses this provider by protocol needs only the key: a catalogue choice could not be saved beside its protocol.
			if (protocolProvider(place.configPath) === choice.provider) return {ok: true, appeared: false, kept: true};
			const {saveModelChoice} = await import('../core/config/save-model-choice.js');
			note((await saveModelChoice(place.configPath, choice)).path);
			return {ok: true, appeared: false};
		} catch (error) {
			return {ok: false, problem: errorMessage(error)};
		}
	}

	try {
		for (const path of await (place.writeProfile ?? writeProfileFiles)(place.configDir)) note(path);
	} catch (error) {
		return {
			ok: false,
			problem: `the plugin files of the init profile (i --runtime init) could not be written in ${place.configDir} (${errorMessage(error)}): make it writable, or set I_CONFIG_DIR to a folder you can write`,
		};
	}

	try {
		await writeFileAtomic(place.configPath, `${JSON.stringify(firstRunConfig(choice), null, 2)}\n`, {exclusive: true, mode: FIRST_RUN_CONFIG_MODE});
		note(place.configPath);
		return {ok: true, appeared: false};
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') return {ok: true, appeared: true};
		return {ok: false, problem: `${place.configPath} could not be written (${errorMessage(error)}): make ${place.configDir} writable, or set I_CONFIG_DIR to a folder you can write`};
	}
}

/** The provider a config file chooses by `protocol` (`"protocol": "deepseek"` is `deepseek`), or undefined. */
function protocolProvider(path: string): string | undefined {
	const bytes = readConfigFileSync(path, {label: `config ${path}`, maxBytes: MAX_CONFIG_BYTES, tooBig: 'too big for a config file'});
	const config: unknown = bytes === undefined ? undefined : JSON.parse(bytes.toString('utf8'));
	const protocol = typeof config === 'object' && config !== null ? (config as {protocol?: unknown}).protocol : undefined;
	return typeof protocol === 'string' ? providerOfProtocol(protocol) : undefined;
}
