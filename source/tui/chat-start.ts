import {join} from 'node:path';
import type {CliOptions} from '../cli-options.js';
import {resolveDirs} from '../core/config/dirs.js';
import type {AskPerson} from '../core/agent/approval-gate.js';
import {exitCodes, MissingKeyError, StartVetoError} from '../core/errors.js';
import type {EventBus} from '../core/extensions/event-bus.js';
import type {Agent} from '../core/session/agent.js';
import {handleInterrupts} from '../shared/interrupt.js';
import {printable, writeErr} from '../shared/output.js';
import {reportSetupError} from '../shared/report-setup-error.js';
import {beforeScreen, type BeforeScreen} from './before-screen.js';
import type {ChooserBroker} from './brokers/chooser-broker.js';
import type {KeyBroker} from './brokers/key-broker.js';
import type {TrustBroker} from './brokers/trust-broker.js';
import type {ChatCore} from './chat-core.js';
import type {ChatStore} from './chat-store.js';
import {firstRunSetup} from './first-run-screen.js';

/** What the start needs of the screen. */
export interface StartParts {
	options: CliOptions;
	store: ChatStore;
	trust: TrustBroker;
	chooser: ChooserBroker;
	keys: KeyBroker;
	/** The extensions whose handlers hear i's own questions (UiPromptStart/End): the first ones while the agent is set up, then the agent's as they are now (a /reload replaces them). */
	setEvents(read: () => EventBus | null): void;
}

/** The screen as the start may end it: its live region erased, then the terminal given back. */
export interface StartScreen {
	close(): Promise<void>;
}

/** How the set-up behind the first frame ended: the agent and the core, or the run's exit code. */
export type Started = {kind: 'started'; agent: Agent; core: ChatCore} | {kind: 'ended'; code: number};

/**
 * The chat's start: before the terminal is touched (the first extensions and
 * their BeforeTuiStart, which may veto the screen), then behind the first
 * frame (the agent's set-up, with the first-run setup when no model is
 * configured). A signal from outside, or Ctrl-C or Esc while it starts,
 * leaves it with the signal's exit code.
 */
export class ChatStart {
	readonly #parts: StartParts;
	/** Aborted by a signal from outside (kill, a closing terminal: raw mode turns Ctrl-C into a key) or by the person leaving while it starts. */
	readonly #leaving = new AbortController();
	readonly #interrupts: {dispose(): void; exitCode(): number | null};
	/** A run without config.json gets the model zero-config-run.ts finds as its `model`. */
	#options: CliOptions & {askTrust: TrustBroker['ask']; nameLater: boolean; permissionProblems: 'notice'};
	/** What was loaded before the screen; after a first-run setup, what was loaded once it wrote the config. */
	#ready: Exclude<BeforeScreen, {kind: 'vetoed'}> = {kind: 'screen-first', extensions: undefined};
	/** No model config (the first run): found before the screen when extensions are listed, else by the set-up behind it. */
	#noConfig: {path: string} | null = null;
	/** Set while the first-run setup asks: Ctrl-C (or Esc outside its lists) leaves it. */
	#leaveSetup: AbortController | null = null;

	constructor(parts: StartParts) {
		this.#parts = parts;
		this.#interrupts = handleInterrupts(this.#leaving);
		// Leaving while the trust question is open answers nothing: the start ends, and it is asked next time.
		this.#leaving.signal.addEventListener('abort', () => parts.trust.cancel(), {once: true});
		// A broken permission rule is a notice on the screen, not a start that fails behind it.
		this.#options = {...parts.options, askTrust: parts.trust.ask, nameLater: true, permissionProblems: 'notice'};
	}

	/** Aborts when a signal from outside comes (after the start too: the chat then ends as with /exit). */
	get signal(): AbortSignal {
		return this.#leaving.signal;
	}

	/** The exit code of a run a signal ended. */
	exitCode(): number {
		return this.#interrupts.exitCode() ?? exitCodes.interrupted;
	}

	/** Stops listening for signals (the run is over). */
	dispose(): void {
		this.#interrupts.dispose();
	}

	/** Ctrl-C or Esc while it starts: leaves the first-run setup's question, else the start, as a signal would. */
	leave(): void {
		if (this.#leaveSetup) this.#leaveSetup.abort();
		else this.#leaving.abort();
	}

	/**
	 * With extensions listed, BeforeTuiStart may veto the screen, so it fires before the terminal is touched;
	 * without, the screen comes first and the agent is set up behind it: a person sees the chat at once.
	 * Null: the screen may come; else the run's exit code.
	 */
	async beforeScreen(): Promise<number | null> {
		const {store} = this.#parts;
		const signal = this.#leaving.signal;
		// Loading extensions may take long, and no screen reads the keys yet: Ctrl-C must reach the process as a signal (run-cli.ts made the terminal raw).
		const cooked = () => {
			if (process.stdin.isTTY) process.stdin.setRawMode(false);
		};
		const early = beforeScreen(this.#options, {...this.#screenContext(), beforeLoading: cooked});
		let before: BeforeScreen;
		try {
			before = await unlessAborted(early, signal);
		} catch (error) {
			if (signal.aborted || !(await isNoModelConfig(error))) {
				this.#interrupts.dispose();
				if (signal.aborted) {
					// Left while an extension loads: the workers started meanwhile are stopped once it is done.
					early.then(async result => (result.kind === 'ready' ? (await result.started).pool?.close() : undefined)).catch(() => {});
					return this.exitCode();
				}

				writeNotices(store);
				return reportSetupError(error, () => {}, false);
			}

			// A key that is set chooses the model; else the setup screen, which needs the screen: the extensions load and hear BeforeTuiStart once it wrote the config (setUp).
			if (await this.#zeroConfig()) return this.beforeScreen();
			this.#noConfig = error as {path: string};
			before = {kind: 'screen-first', extensions: undefined};
		}

		if (before.kind === 'vetoed') {
			this.#interrupts.dispose();
			// The screen never came: what the extensions said so far goes where a headless run puts it.
			for (const warning of before.warnings) writeErr(`${printable(`i: ${warning}`)}\n`);
			writeNotices(store);
			return reportSetupError(vetoError(before), () => {}, false);
		}

		this.#ready = before;
		const events = before.extensions?.events ?? null;
		this.#parts.setEvents(() => events);
		return null;
	}

	/**
	 * Behind the first frame: the core's chunk, then the agent; with no model
	 * configured, the first-run setup first. Leaving, a veto or a failure
	 * clears the screen, so the last word is on the terminal as in line mode.
	 */
	async setUp(screen: StartScreen, askPerson: AskPerson): Promise<Started> {
		const signal = this.#leaving.signal;
		let agent!: Agent;
		let core!: ChatCore;
		try {
			core = await import('./chat-core.js');
			const setUp = async () =>
				core.setupAgent(this.#options, event => this.#parts.store.apply(event), askPerson, signal, this.#ready.kind === 'ready' ? this.#ready.started : undefined, this.#ready.extensions);
			const found = this.#noConfig;
			let missing: {path: string; keyGone?: MissingKeyError} | null = this.#noConfig;
			if (!missing) {
				try {
					agent = await setUp();
				} catch (error) {
					if (signal.aborted) throw error;
					const saved = error instanceof MissingKeyError ? this.#savedChoice() : undefined;
					if (error instanceof core.NoModelConfigError) missing = (await this.#zeroConfig()) ? null : error;
					else if (saved !== undefined) missing = {path: saved, keyGone: error as MissingKeyError};
					else throw error;
					// The zero-config model, or the setup's choice: set up again, from the start (a failed set-up closed what it started).
					if (this.#ready.kind === 'ready') this.#ready = {kind: 'screen-first', extensions: undefined};
					if (!missing) agent = await setUp();
				}
			}

			if (missing) {
				const code = await this.#firstRun(missing.path, found !== null, screen, missing.keyGone);
				if (code !== null) return {kind: 'ended', code};
				agent = await setUp();
			}

			// The agent's handlers from now on.
			this.#parts.setEvents(() => agent.extensionEvents);
		} catch (error) {
			// A question still open (the session could not be opened meanwhile) goes unanswered.
			this.#parts.trust.cancel();
			await this.#end(screen);
			// Left during setup (a signal, Ctrl-C or Esc): not an error to report.
			if (signal.aborted) return {kind: 'ended', code: this.exitCode()};
			return {kind: 'ended', code: reportSetupError(error, () => {}, false)};
		}

		if (signal.aborted) {
			// Left while the last of the setup finished anyway.
			await screen.close();
			await agent.close();
			this.#interrupts.dispose();
			return {kind: 'ended', code: this.exitCode()};
		}

		return {kind: 'started', agent, core};
	}

	/**
	 * The first run: the setup screen, then the chat with the model it saved, in this same process.
	 * `extensionsListed`: they load and hear BeforeTuiStart now, before the chat starts, and may still veto it.
	 * Null: the chat may start; else the run's exit code.
	 */
	async #firstRun(configPath: string, extensionsListed: boolean, screen: StartScreen, keyGone?: MissingKeyError): Promise<number | null> {
		const {options, store, chooser, keys} = this.#parts;
		const leave = new AbortController();
		this.#leaveSetup = leave;
		const signal = AbortSignal.any([leave.signal, this.#leaving.signal]);
		if (keyGone) store.notice('warning', `${keyGone.message}; choose where its key comes from, or another provider`);
		const outcome = await firstRunSetup(configPath, options, {store, chooser, keys, signal}, keyGone ? {provider: keyGone.provider} : undefined).finally(() => {
			this.#leaveSetup = null;
		});
		if (outcome.kind === 'left') {
			await this.#end(screen);
			if (this.#leaving.signal.aborted) return this.exitCode();
			writeErr(`i: the setup was left; ${outcome.written.length === 0 ? 'nothing was written' : `written before: ${outcome.written.join(', ')}`}\n`);
			if (keyGone) return reportSetupError(keyGone, () => {}, false);
			const {firstRunError} = await import('../shared/first-run-commands.js');
			return reportSetupError(await firstRunError(configPath, options, outcome.built), () => {}, false);
		}

		if (!extensionsListed) return null;
		const after = await beforeScreen(this.#options, this.#screenContext());
		if (after.kind === 'vetoed') {
			await this.#end(screen);
			for (const warning of after.warnings) writeErr(`${printable(`i: ${warning}`)}\n`);
			return reportSetupError(vetoError(after), () => {}, false);
		}

		this.#ready = after;
		const events = after.extensions?.events ?? null;
		this.#parts.setEvents(() => events);
		return null;
	}

	/** No config.json and a key set: the model zero-config-run.ts finds becomes this run's `--model`, said in the transcript. False: none. */
	async #zeroConfig(): Promise<boolean> {
		const {zeroConfigRun} = await import('../shared/zero-config-run.js');
		const found = await zeroConfigRun(this.#options);
		if (!found) return false;
		this.#options = {...this.#options, model: found.model};
		this.#parts.store.notice('info', found.notice);
		return true;
	}

	/** The default config.json, when the run's model is its choice (no flag chose another): the setup may write a new choice into it. */
	#savedChoice(): string | undefined {
		const {options} = this.#parts;
		if (options.config !== undefined || options.provider !== undefined || options.model !== undefined || options.apiKey !== undefined) return undefined;
		return join(resolveDirs().config_dir, 'config.json');
	}

	/** The screen goes before the start's last word. */
	async #end(screen: StartScreen): Promise<void> {
		await screen.close();
		this.#interrupts.dispose();
	}

	#screenContext(): Parameters<typeof beforeScreen>[1] {
		return {report: message => this.#parts.store.notice('warning', message), columns: process.stdout.columns, rows: process.stdout.rows};
	}
}

/** The notices gathered before a screen that never came (extension console output, warnings), on stderr. */
function writeNotices(store: ChatStore): void {
	for (const item of store.getSnapshot().finished) if (item.kind === 'notice') writeErr(`i: ${item.text}\n`);
}

/** `work`, or the signal's reason as soon as it aborts: a hanging extension must not keep a person who leaves. */
async function unlessAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
	return new Promise((resolve, reject) => {
		const onAbort = () => reject(signal.reason);
		if (signal.aborted) onAbort();
		signal.addEventListener('abort', onAbort, {once: true});
		work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
	});
}

/** A BeforeTuiStart veto as the start's error (exit 3). */
function vetoError(before: Extract<BeforeScreen, {kind: 'vetoed'}>): StartVetoError {
	const why = `extension ${before.extension} stopped the start before the chat screen (BeforeTuiStart)`;
	return new StartVetoError(before.reason === null ? why : `${why}: ${before.reason}`);
}

/** Whether `error` is load-config's "no model config" (its module is loaded only when set-up ran, so only then is it imported here). */
async function isNoModelConfig(error: unknown): Promise<boolean> {
	if (!(error instanceof Error) || error.name !== 'UsageError') return false;
	return error instanceof (await import('../core/config/load-config.js')).NoModelConfigError;
}
