import {basename, dirname} from 'node:path';
import {createElement} from 'react';
import {render} from 'ink';
import type {CliOptions} from '../cli-options.js';
import {exitCodes, StartVetoError} from '../core/errors.js';
import type {AskPerson} from '../core/agent/approval-gate.js';
import type {EventBus} from '../core/extensions/event-bus.js';
import type {Agent} from '../core/session/agent.js';
import {handleInterrupts} from '../shared/interrupt.js';
import {printable, writeErr} from '../shared/output.js';
import {reportSetupError} from '../shared/report-setup-error.js';
import {App} from '../../components/App.js';
import {ApprovalBroker} from './brokers/approval-broker.js';
import {beforeScreen, type BeforeScreen} from './before-screen.js';
import {ChatStore} from './chat-store.js';
import {consoleToNotices} from './console-notices.js';
import {keysHelp, parseSlashCommand} from './slash-commands.js';
import {INIT_PROMPT} from './commands/init-prompt.js';
import {Notifier} from './notify/notifier.js';
import type {McpPromptCommand} from '../core/mcp/mcp-servers.js';
import {costReport, emptyCost} from './cost-tally.js';
import {chainMarkdownTransformers} from './markdown/markdown-transform.js';
import {markdownOptions} from './markdown/markdown-options.js';
import {customRendering} from './custom-rendering.js';
import type {Session} from '../core/session/session-store.js';
import {runExtensionCommand} from './commands/extension-command.js';
import {reportExtensionRejections} from '../shared/extension-rejections.js';
import {TrustBroker} from './brokers/trust-broker.js';
import {DialogBroker} from './brokers/dialog-broker.js';
import {ChooserBroker} from './brokers/chooser-broker.js';
import {KeyBroker} from './brokers/key-broker.js';
import {chooseModel as pickModel, chooseProvider as pickProvider, type ModelTarget} from './commands/model-picker.js';
import {QuestionLine} from './brokers/open-question.js';
import {uiPromptEvents} from './ui-prompt-events.js';
import {findPromptTemplate, parseTemplateCommand} from '../core/resources/prompt-template-file.js';
import {parseBangPrompt} from '../core/user-bash/bang-prompt.js';

/**
 * The full-screen chat, when stdin and stdout are terminals. The core runs
 * the turns; the store turns its events into screen state; the Ink app
 * renders that and hands the person's actions back here.
 */
export async function runTui(options: CliOptions): Promise<number> {
	const store = new ChatStore({model: '', workspace: '', session: null, usage: null, window: null}, {logo: options.logo, starting: true});
	// Extension code that prints would break the frames: its console output becomes notices.
	const restoreConsole = consoleToNotices((level, text) => store.notice(level, text));
	try {
		return await chat(options, store, restoreConsole);
	} finally {
		restoreConsole();
	}
}

async function chat(options: CliOptions, store: ChatStore, restoreConsole: () => void): Promise<number> {
	// The extensions' handlers for i's own questions (UiPromptStart/End): the first ones while the agent is set up, then the agent's.
	let events: EventBus | null = null;
	const prompts = uiPromptEvents(() => events);
	// One question at a time: approvals, the trust question and the extensions' dialogs wait for each other on one line.
	const line = new QuestionLine();
	const broker = new ApprovalBroker(prompts, line);
	const trust = new TrustBroker(prompts, line);
	const dialogs = new DialogBroker(prompts, line);
	const chooser = new ChooserBroker(line);
	const keys = new KeyBroker(line);
	// The bell or a desktop notification when a turn ends or an approval waits while the person looks elsewhere; off until the settings are read.
	const notifier = new Notifier(bytes => process.stdout.write(bytes));
	// Signals from outside (kill, a closing terminal): raw mode turns Ctrl-C into a key, so these are not the person's.
	const setupController = new AbortController();
	const interrupts = handleInterrupts(setupController);
	// Leaving while the trust question is open answers nothing: the start ends, and it is asked next time.
	setupController.signal.addEventListener('abort', () => trust.cancel(), {once: true});
	const setupOptions = {...options, askTrust: trust.ask, nameLater: true};

	// With extensions listed, BeforeTuiStart may veto the screen, so it fires before the terminal is touched;
	// without, the screen comes first and the agent is set up behind it: a person sees the chat at once.
	const early = beforeScreen(setupOptions, {report: message => store.notice('warning', message), columns: process.stdout.columns, rows: process.stdout.rows});
	let before: BeforeScreen;
	/** No model config (the first run): found before the screen when extensions are listed, else by the set-up behind it. */
	let noConfig: {path: string} | null = null;
	try {
		before = await unlessAborted(early, setupController.signal);
	} catch (error) {
		if (setupController.signal.aborted || !(await isNoModelConfig(error))) {
			interrupts.dispose();
			if (setupController.signal.aborted) {
				// Left while an extension loads: the workers started meanwhile are stopped once it is done.
				early.then(async result => (result.kind === 'ready' ? (await result.started).pool?.close() : undefined)).catch(() => {});
				return interrupts.exitCode() ?? exitCodes.interrupted;
			}

			writeNotices(store);
			return reportSetupError(error, () => {}, false);
		}

		// The setup screen needs the screen: the extensions load and hear BeforeTuiStart once it wrote the config (below).
		noConfig = error as {path: string};
		before = {kind: 'screen-first', extensions: undefined};
	}

	if (before.kind === 'vetoed') {
		interrupts.dispose();
		// The screen never came: what the extensions said so far goes where a headless run puts it.
		for (const warning of before.warnings) writeErr(`${printable(`i: ${warning}`)}\n`);
		writeNotices(store);
		return reportSetupError(vetoError(before), () => {}, false);
	}

	/** What was loaded before the screen; after a first-run setup, what was loaded once it wrote the config. */
	let ready: Exclude<BeforeScreen, {kind: 'vetoed'}> = before;
	events = before.extensions?.events ?? null;
	// Set once setup succeeded; the screen refuses messages and commands until then.
	let agent!: Agent;
	let core!: typeof import('./chat-core.js');
	const history: string[] = [];
	let turn: AbortController | null = null;
	let running: Promise<void> = Promise.resolve();
	let finish!: (code: number) => void;
	const finished = new Promise<number>(resolve => {
		finish = resolve;
	});

	const interrupt = () => {
		broker.cancel();
		turn?.abort();
	};

	/** A turn; `shownAs` is what the transcript shows of it (/init's line instead of its long prompt). */
	const startTurn = (text: string, shownAs?: string, from: 'person' | 'server' = 'person') => {
		notifier.turnStarted();
		turn = new AbortController();
		const controller = turn;
		store.setBusy(true);
		running = settleTurn(sendPrompt(text, controller, shownAs, from), controller);
	};

	/**
	 * The @-mentions attached (attach-mentions.ts), then the turn; a message past the attachment limits is not sent, and says why.
	 * A server's text (an MCP prompt) is sent as it is: an `@path` in it attaches no file of the workspace.
	 */
	const sendPrompt = async (text: string, controller: AbortController, shownAs: string | undefined, from: 'person' | 'server'): Promise<{reason: string} | undefined> => {
		if (from === 'server') {
			store.addUser(shownAs ?? text);
			return agent.runTurn(text, controller.signal);
		}

		const prepared = await core.promptContent(text, agent.workspace);
		// Esc while the files were read: nothing is sent.
		if (controller.signal.aborted) return undefined;
		for (const notice of prepared.notices) store.notice('warning', notice);
		if (!prepared.ok) {
			store.notice('error', `${prepared.error} (↑ brings the message back to edit)`);
			return undefined;
		}

		store.addUser(shownAs ?? prepared.text, core.describeAttachments(prepared.attachments));
		// `@server:uri` resources read into the text for the model (the transcript shows it as typed).
		const content =
			prepared.text.includes('@') && agent.mcp.servers !== null
				? await (await import('../core/mcp/resource-mentions.js')).contentWithResources(prepared.content, prepared.text, agent.mcp, controller.signal, problem => store.notice('warning', problem))
				: prepared.content;
		return agent.runTurn(content, controller.signal);
	};

	/** `!command` (`!!command`: not added to the context): the person's own, run at once with no approval; Esc stops it. */
	const runBang = (command: string, excludeFromContext: boolean) => {
		if (command === '') {
			store.notice('warning', 'usage: !COMMAND runs it in the workspace and adds its output to the context of your next message; !!COMMAND runs it without adding it');
			return;
		}

		turn = new AbortController();
		const controller = turn;
		store.startBash(command);
		running = settleTurn(
			(async () => {
				try {
					const run = await core.runUserBash(command, {
						workspace: agent.workspace,
						signal: controller.signal,
						events: agent.extensionEvents ?? null,
						excludeFromContext,
						onOutput: text => store.bashOutput(text),
					});
					const message = core.userBashMessage(run);
					// Saved before it is shown as added: a failed write says so, and the screen does not claim otherwise.
					let saved = !excludeFromContext;
					if (saved) {
						try {
							await core.recordUserBash(agent.session, agent.systemPrompt, message);
						} catch (error) {
							saved = false;
							store.notice('error', `the command's output was not added to the context: ${(error as Error).message}`);
						}
					}

					store.endBash({command, output: message._user_bash.shown, status: run.status, context: saved});
				} catch (error) {
					store.endBash({command, output: '', status: `failed: ${(error as Error).message}`, context: false});
				}
			})(),
			controller,
		);
	};

	/** `/mcp__<server>__<prompt> ARGS`: the prompt's arguments checked, its messages fetched and sent as the turn. */
	const runMcpPrompt = async (prompt: McpPromptCommand, args: string) => {
		const {parsePromptArguments, promptText} = await import('../core/mcp/mcp-prompt.js');
		let text: string;
		store.setBusy(true);
		try {
			const values = parsePromptArguments(args, prompt);
			const connection = agent.mcp.servers?.connection(prompt.server);
			if (!connection) throw new Error(`MCP server ${prompt.server} is gone`);
			text = promptText(await connection.getPrompt(prompt.prompt, values));
		} catch (error) {
			store.setBusy(false);
			store.notice('warning', (error as Error).message);
			return;
		}

		startTurn(text, undefined, 'server');
	};

	/** A run's end: its failure a notice, the screen idle again, the turn no longer the one Esc stops. */
	const settleTurn = async (run: Promise<{reason: string} | undefined | void>, controller: AbortController): Promise<void> =>
		run
			.then(
				outcome => {
					if (outcome) notifier.turnEnded(outcome.reason);
				},
				(error: unknown) => store.notice('error', (error as Error).message),
			)
			.finally(() => {
				if (turn === controller) turn = null;
				store.setBusy(false);
			});

	/** Set once the person leaves: no run starts after that. */
	let leaving = false;
	/**
	 * A run an extension asked for (sendMessage with triggerTurn: true while
	 * idle): its message is saved and shown already; it starts once the
	 * command or reload that is running ends, as if the person had sent it.
	 */
	const startTriggeredTurn = () => {
		const before = running;
		const controller = new AbortController();
		running = settleTurn(
			before.then(async () => {
				if (leaving) return;
				turn = controller;
				store.setBusy(true);
				notifier.turnStarted();
				return agent.runTurn(null, controller.signal);
			}),
			controller,
		);
	};

	/** Switches the running session's model and saves it as the default; a failure leaves both and says why. */
	const switchTo = async (target: ModelTarget) => {
		const before = agent.selected ? `${agent.selected.provider}/${agent.selected.model}` : agent.caller.model;
		const result = await agent.switchModel(target);
		if (!result.ok) {
			store.notice('error', `the switch failed; the session keeps ${before} and config.json is unchanged: ${result.reason}`);
			return;
		}

		store.setModel(result.caller.model);
		const saved =
			result.saved === null
				? 'not saved (the config was given as an object, not a file)'
				: `saved as the default in ${result.saved.path}${result.saved.removed.length === 0 ? '' : ` (removed ${result.saved.removed.map(field => `"${field}"`).join(', ')}: the catalogue gives them now)`}`;
		store.notice('info', `now ${result.selected.provider}/${result.selected.model} (${result.credentialSource}); ${saved}`);
	};

	const command = async (name: string, args = '') => {
		switch (name) {
			case '/provider': {
				const [word, id, ...rest] = args.split(/\s+/).filter(part => part !== '');
				if (word === 'remove') {
					if (id === undefined || rest.length > 0) {
						store.notice('warning', 'usage: /provider remove ID (a provider you added in models.json)');
						break;
					}

					const removed = await agent.removeProvider(id);
					store.notice(removed.ok ? 'info' : 'warning', removed.message);
					break;
				}

				if (id !== undefined) {
					store.notice('warning', 'usage: /provider, /provider ID or /provider remove ID');
					break;
				}

				const target = word ?? (await pickProvider(agent, chooser));
				if (target !== null) await switchTo({provider: target, model: undefined, origin: `/provider ${target}`});
				break;
			}

			case '/model': {
				const words = args.split(/\s+/).filter(part => part !== '');
				if (words.length > 1) {
					store.notice('warning', 'usage: /model or /model ID (or PROVIDER/MODEL)');
					break;
				}

				const target = words[0] === undefined ? await pickModel(agent, chooser) : modelTarget(agent, words[0]);
				if (target !== null) await switchTo(target);
				break;
			}

			case '/help': {
				store.notice('info', keysHelp(store.getSnapshot().commands));
				break;
			}

			case '/session': {
				store.notice('info', `session ${agent.session.id}\n${agent.session.path}\n${agent.session.messages.length} messages in ${agent.workspace}`);
				break;
			}

			case '/clear': {
				const next = await core.openWorkspaceSession({path: core.provisionalSessionPath(agent.sessionFolder), workspace: agent.workspace, warn: sessionWarning});
				await switchSession(next);
				// A new session starts with the AGENTS.md files as they are now.
				await readInstructions();
				store.notice('info', `new session ${next.id}: it is named after its first message; the previous one stays saved`);
				break;
			}

			case '/resume': {
				await resume(false);
				break;
			}

			case '/fork': {
				const outcome = await core.forkSession(agent.session, agent.sessionFolder, agent.extensionEvents ?? null, sessionWarning);
				if (!outcome.ok) {
					store.notice('warning', `extension ${outcome.by} refused the fork (SessionBeforeFork)${outcome.reason === null ? '' : `: ${outcome.reason}`}; this session goes on`);
					break;
				}

				const from = agent.session.path;
				await switchSession(outcome.fork, {showHistory: false});
				store.notice('info', `forked into ${sessionName(outcome.fork.path)} (${outcome.fork.messages.length} messages); ${sessionName(from)} stays as it was`);
				break;
			}

			case '/rename': {
				if (args === '' || /\s/.test(args)) {
					store.notice('warning', 'usage: /rename NAME (letters, digits, ".", "_" and "-")');
					break;
				}

				if (dirname(agent.session.path) !== agent.sessionFolder) {
					store.notice('warning', `/rename renames the chat's own sessions; this one is ${agent.session.path} (--session or --session-name names it)`);
					break;
				}

				const before = sessionName(agent.session.path);
				await core.renameWorkspaceSession(agent.session, args);
				store.notice('info', `renamed ${before} to ${sessionName(agent.session.path)}`);
				break;
			}

			case '/cost': {
				store.notice('info', costReport(store.getSnapshot().status.cost ?? emptyCost()));
				break;
			}

			case '/compact': {
				store.setBusy(true);
				try {
					const result = await agent.compactNow(new AbortController().signal);
					store.notice(result === 'compacted' ? 'info' : 'warning', result === 'compacted' ? 'the history was compacted' : result);
				} catch (error) {
					store.notice('error', (error as Error).message);
				} finally {
					store.setBusy(false);
				}

				break;
			}

			case '/reload': {
				store.setBusy(true);
				try {
					// The instructions first: the extensions' notice is the reload's last word, as before.
					const {changed, instructions} = await readInstructions();
					const count = instructions.files.length;
					if (count > 0 || changed)
						store.notice('info', `AGENTS.md: ${count === 0 ? 'none now' : `${count} file${count === 1 ? '' : 's'} read`}${changed ? "; the session's system prompt now holds them" : ''}`);
					await reload();
				} finally {
					store.setBusy(false);
				}

				break;
			}

			case '/context': {
				store.notice('info', await (await import('./commands/context-notice.js')).contextNotice(agent));
				break;
			}

			case '/init': {
				startTurn(INIT_PROMPT, '/init');
				break;
			}

			case '/mcp': {
				const {mcpSlash} = await import('./commands/mcp-slash.js');
				// A login waits for the browser's redirect (minutes at most); the screen goes on meanwhile (command() is not awaited).
				const notice = await mcpSlash(agent.mcp, args, text => store.notice('info', text));
				store.notice(notice.level, notice.text);
				break;
			}

			case '/exit': {
				finish(exitCodes.ok);
				break;
			}
		}
	};

	/** Reads the AGENTS.md files again into the session's system prompt and the next session's (/reload, /clear). */
	const readInstructions = async () => {
		const result = await agent.reloadInstructions();
		for (const message of result.notices) store.notice('warning', message);
		return result;
	};

	const sessionWarning = (message: string) => store.notice('warning', message);

	/** Puts `next` in place of the running session (the old one is saved and closed) and shows its history, unless it is on the screen already (a fork). */
	const switchSession = async (next: Session, options: {showHistory: boolean} = {showHistory: true}) => {
		// The children of the old session end with it; new ones' sessions go beside the new one.
		await agent.switchSession(next);
		store.setSession(next.id);
		if (options.showHistory && next.messages.length > 0) core.showSessionHistory(next, store);
	};

	/** /resume and --resume: the picker of the workspace's sessions; the one chosen replaces the running session. */
	const resume = async (atStart: boolean) => {
		const folder = agent.sessionFolder;
		const current = agent.session.path;
		const summaries = await core.listSessions(folder);
		if (summaries.every(summary => summary.path === current)) {
			store.notice('info', `no saved session in this workspace yet (${folder})${atStart ? ': this is a new one' : ''}`);
			return;
		}

		const chosen = await chooser.ask(core.sessionPickerRequest(summaries, new Date(), current));
		const summary = summaries.find(candidate => candidate.name === chosen);
		if (!summary) {
			if (atStart) store.notice('info', 'no session chosen: this is a new one');
			return;
		}

		const why = core.cannotOpen(summary, current);
		if (why) {
			store.notice('warning', why);
			return;
		}

		const next = await core.openWorkspaceSession({path: summary.path, workspace: agent.workspace, warn: sessionWarning});
		store.notice('info', `resumed ${summary.name} (${next.messages.length} messages)`);
		await switchSession(next);
		if (next.dropped) store.notice('warning', `session repaired: dropped ${next.dropped.lines} line(s) (${next.dropped.reason}), kept in ${next.dropped.savedTo}`);
	};

	/** Stops reporting the loaded extensions' unhandled rejections (replaced at each reload). */
	let stopReporting: () => void = () => {};
	/** The `i dev` build now loaded, replaced by each new one. */
	let devPath = options.dev?.first;

	/** The extensions' commands and Markdown transform, in the screen. */
	const showExtensions = () => {
		const {commands, markdownTransformers} = agent.extensionUi;
		store.extend({
			commands: [
				...[...commands].map(([name, command]) => ({name: `/${name}`, description: command.description, extension: command.extension})),
				// The MCP servers' prompts, as their servers list them now (showExtensions runs again on each change).
				...(agent.mcp.servers?.prompts() ?? []).map(prompt => ({name: `/${prompt.command}`, description: `${prompt.description} (MCP server ${prompt.server})`})),
			],
			transform: markdownTransformers.length === 0 ? (text: string) => text : chainMarkdownTransformers(markdownTransformers, message => store.notice('warning', message)),
			rendering: customRendering(agent.extensionUi, message => store.notice('warning', message)),
		});
	};

	/**
	 * Loads every extension again (/reload, or a new `i dev` build): `build`
	 * is the new build's staged copy; with `i dev` and none, it builds first.
	 * On any failure the loaded generation stays and the screen says why.
	 */
	const reload = async (build?: string) => {
		let path = build;
		if (options.dev && path === undefined) {
			const built = await options.dev.rebuild();
			if (!built.ok) {
				store.notice('error', `the build failed; the loaded version stays:\n${built.error}`);
				return;
			}

			path = built.path;
		}

		const extensions = path === undefined ? undefined : [path, ...options.extensions.filter(other => other !== devPath)];
		const result = await agent.reloadExtensions(extensions ? {extensions} : {});
		if (!result.ok) {
			store.notice('error', `the reload failed; the extensions loaded before stay:\n${result.problems.join('\n')}`);
			return;
		}

		if (path !== undefined) devPath = path;
		showExtensions();
		stopReporting();
		stopReporting = reportExtensionRejections(agent.extensionFiles, event => store.apply(event));
		for (const message of result.warnings) store.notice('warning', message);
		store.notice('info', `reloaded ${result.loaded} extension${result.loaded === 1 ? '' : 's'}`);
	};

	const submit = (text: string) => {
		history.push(text);
		const slash = parseSlashCommand(text, store.getSnapshot().commands);
		if (slash === null) {
			const bang = parseBangPrompt(text);
			if (bang.kind === 'command') runBang(bang.command, bang.excludeFromContext);
			else startTurn(bang.text);
			return;
		}

		if ('unknown' in slash) {
			// A prompt template is a turn: the prompts module expands it.
			if (isPromptTemplate(agent, text)) startTurn(text);
			else store.notice('warning', `no command ${slash.unknown}; /help lists them`);
			return;
		}

		if ('extension' in slash) {
			const command = agent.extensionUi.commands.get(slash.extension);
			if (!command) {
				const prompt = agent.mcp.servers?.prompts().find(candidate => candidate.command === slash.extension);
				if (prompt) runMcpPrompt(prompt, slash.args).catch((error: unknown) => store.notice('error', (error as Error).message));
				return;
			}

			store.setBusy(true);
			// Esc stops it as it stops a turn: the command's signal aborts, and the screen does not wait for a command that ignores it.
			turn = new AbortController();
			const controller = turn;
			running = runExtensionCommand(slash.extension, command, slash.args, {workspace: agent.workspace, sessionId: agent.session.id, signal: controller.signal, store}).finally(() => {
				if (turn === controller) turn = null;
				store.setBusy(false);
			});
			return;
		}

		// The screen stays live while a command runs; a failure (a new session that cannot be opened) is a notice, never an unhandled rejection.
		command(slash.name, 'args' in slash ? slash.args : '').catch((error: unknown) => store.notice('error', (error as Error).message));
	};

	/** Set while the first-run setup asks: Ctrl-C (or Esc outside its lists) leaves it. */
	let leaveSetup: AbortController | null = null;
	const onInterrupt = () => {
		if (leaveSetup) {
			leaveSetup.abort();
			return;
		}

		if (store.getSnapshot().starting) {
			// Ctrl-C or Esc while the plugins start: leave, as a signal would.
			setupController.abort();
			return;
		}

		interrupt();
	};

	const onFocus = (focused: boolean) => notifier.focusChanged(focused);
	const instance = render(createElement(App, {store, broker, trust, dialogs, chooser, keys, history, onSubmit: submit, onInterrupt, onExit: () => finish(exitCodes.ok), onFocus}), {
		exitOnCtrlC: false,
		patchConsole: false,
		maxFps: 30,
	});
	// The Markdown renderer and its highlighter are a chunk of their own, loaded behind the first frame while the agent is set up.
	const markdown = markdownOptions(process.env);
	const markdownLoad = markdown === null ? null : new Promise(resolve => setImmediate(resolve)).then(async () => import('./markdown/render-markdown.js'));
	// Its failure is reported where it is awaited; the screen may end before that.
	markdownLoad?.catch(() => {});
	// Once the screen is gone, console output (SessionShutdown handlers) goes to the terminal as in any program.
	const closeScreen = () => {
		instance.unmount();
		restoreConsole();
	};

	try {
		const askPerson: AskPerson = async (request, signal) => {
			store.asking(request.id);
			notifier.approvalWaiting(request.ask.title);
			return broker.askPerson(request, signal);
		};
		core = await import('./chat-core.js');
		const setUp = async () => core.setupAgent(setupOptions, event => store.apply(event), askPerson, setupController.signal, ready.kind === 'ready' ? ready.started : undefined, ready.extensions);
		const found = noConfig;
		let missing = noConfig;
		if (!missing) {
			try {
				agent = await setUp();
			} catch (error) {
				if (setupController.signal.aborted || !(error instanceof core.NoModelConfigError)) throw error;
				missing = error;
			}
		}

		if (missing) {
			// The first run: the setup screen, then the chat with the model it saved, in this same process.
			const leave = new AbortController();
			leaveSetup = leave;
			const outcome = await firstRunSetup(missing.path, options, {store, chooser, keys, signal: AbortSignal.any([leave.signal, setupController.signal])}).finally(() => {
				leaveSetup = null;
			});
			if (outcome.kind === 'left') {
				instance.clear();
				closeScreen();
				interrupts.dispose();
				if (setupController.signal.aborted) return interrupts.exitCode() ?? exitCodes.interrupted;
				writeErr(`i: the setup was left; ${outcome.written.length === 0 ? 'nothing was written' : `written before: ${outcome.written.join(', ')}`}\n`);
				const {firstRunError} = await import('../shared/first-run-commands.js');
				return reportSetupError(await firstRunError(missing.path, options, outcome.built), () => {}, false);
			}

			if (found) {
				// Extensions are listed: they load and hear BeforeTuiStart now, before the chat starts, and may still veto it.
				const after = await beforeScreen(setupOptions, {report: message => store.notice('warning', message), columns: process.stdout.columns, rows: process.stdout.rows});
				if (after.kind === 'vetoed') {
					instance.clear();
					closeScreen();
					interrupts.dispose();
					for (const warning of after.warnings) writeErr(`${printable(`i: ${warning}`)}\n`);
					return reportSetupError(vetoError(after), () => {}, false);
				}

				ready = after;
				events = after.extensions?.events ?? null;
			}

			agent = await setUp();
		}

		events = agent.extensionEvents ?? null;
		// /reload and /clear replace the agent's fields here: the execution context reads this agent.
	} catch (error) {
		// A question still open (the session could not be opened meanwhile) goes unanswered.
		trust.cancel();
		// The screen goes, so the error is the last thing on the terminal, as in line mode.
		instance.clear();
		closeScreen();
		interrupts.dispose();
		// Left during setup (a signal, Ctrl-C or Esc): not an error to report.
		if (setupController.signal.aborted) return interrupts.exitCode() ?? exitCodes.interrupted;
		return reportSetupError(error, () => {}, false);
	}

	if (setupController.signal.aborted) {
		// Left while the last of the setup finished anyway.
		instance.clear();
		closeScreen();
		await agent.close();
		interrupts.dispose();
		return interrupts.exitCode() ?? exitCodes.interrupted;
	}

	// The screen is the one head that can ask the person (api.runtime.uiDialog); kept across /reload.
	agent.provideRuntime({uiDialog: dialogs.ask});
	showExtensions();
	// The MCP servers' prompts join the commands as their servers become ready (and leave when one fails).
	// Their resources join the @ picker the same way (and leave with a server that stopped).
	const showResources = () => store.setResources((agent.mcp.servers?.resources() ?? []).map(resource => ({path: resource.mention, directory: false, resource: resource.name})));
	void agent.mcp.ready.then(servers => {
		showResources();
		servers?.subscribe(() => {
			showExtensions();
			showResources();
		});
	});
	agent.delivery.provideStarter({canStart: () => !leaving && turn?.signal.aborted !== true, start: startTriggeredTurn});
	// An unhandled rejection from extension code is a notice naming the extension, never a crash (EXTENSIONS.md).
	stopReporting = reportExtensionRejections(agent.extensionFiles, event => store.apply(event));
	// i dev: each build the watcher made is loaded once no turn or command is running; a failed one is shown, the loaded version stays.
	const stopDev = options.dev?.onBuild(build => {
		if (!build.ok) {
			store.notice('error', `the build failed; the loaded version stays:\n${build.error}`);
			return;
		}

		const load = async () => {
			await running;
			store.setBusy(true);
			try {
				await reload(build.path);
			} finally {
				store.setBusy(false);
			}
		};

		running = load().catch((error: unknown) => store.notice('error', (error as Error).message));
	});
	// Before the first message can be sent, so every answer is drawn as Markdown; a chunk that fails to load leaves the text plain and says so.
	if (markdownLoad && markdown) {
		try {
			store.setMarkdown((await markdownLoad).createMarkdownRenderer(markdown));
		} catch (error) {
			store.notice('warning', `answers are shown as plain text: the Markdown renderer did not load (${(error as Error).message})`);
		}
	}

	// Behind the first frame, not waited for (the settings reader is the core's); the end waits for it, so reporting never stays on.
	const notifications = import('./notify/start-notifications.js')
		.then(async ({startNotifications}) => startNotifications(notifier, {env: process.env, configDir: core.resolveDirs().config_dir, isTTY: process.stdout.isTTY === true}))
		.catch((error: unknown) => {
			store.notice('warning', `notifications are off: ${(error as Error).message}`);
			return () => {};
		});
	// A resumed session (--continue, --session) shows its conversation, its extensions' messages and entries as they were shown, drawn as Markdown when it is on.
	if (agent.session.messages.length > 0 || agent.session.entries.length > 0) core.showSessionHistory(agent.session, store);
	if (agent.instructions.enabled && !agent.instructions.inSession) store.notice('info', 'AGENTS.md changed since this session started: it keeps the instructions it started with until /reload reads them again');
	store.started({model: agent.caller.model, workspace: agent.workspace, window: agent.budget?.window ?? null});
	// --resume: the picker comes once the screen is ready; the person may type meanwhile, as with any picker.
	if (options.resume === true) running = resume(true).catch((error: unknown) => store.notice('error', (error as Error).message));
	// A signal from outside ends the chat like /exit, after the running turn saved its last complete step.
	setupController.signal.addEventListener('abort', () => {
		interrupt();
		finish(interrupts.exitCode() ?? exitCodes.interrupted);
	});

	const code = await finished;
	leaving = true;
	agent.delivery.provideStarter(undefined);
	stopDev?.();
	stopReporting();
	// Dialogs still open or waiting close as the person leaving; the extensions' SessionShutdown handlers get no new ones.
	dialogs.leave();
	chooser.cancel();
	interrupt();
	// The interrupted turn saves its last complete step before the session closes.
	await running;
	(await notifications)();
	closeScreen();
	await agent.close();
	interrupts.dispose();
	return code;
}

/** A session's name: its file's, without `.json`. */
function sessionName(path: string): string {
	return basename(path, '.json');
}

/** `/model ID`: a bare id within the current provider (when it has one), `PROVIDER/MODEL` or a bare id anywhere otherwise. */
function modelTarget(agent: Agent, id: string): ModelTarget {
	const provider = agent.selected?.provider;
	const own = provider !== undefined && !id.includes('/') ? provider : undefined;
	return {provider: own, model: id, origin: `/model ${id}`};
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

/** `/name …` names a prompt template the prompts module will find (a folder it cannot read counts as none here; the turn would say why). */
function isPromptTemplate(agent: Agent, text: string): boolean {
	const command = parseTemplateCommand(text);
	if (command === null || agent.promptTemplateFolders === null) return false;
	try {
		return findPromptTemplate(agent.promptTemplateFolders, command.name) !== undefined;
	} catch {
		return false;
	}
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

/**
 * The first-run setup on this screen (first-run-setup.ts, loaded only now):
 * the catalogue as a run here would have it, the screen's chooser and key
 * field, the transcript for what went wrong. Aborting `signal` closes what
 * is open and leaves.
 */
async function firstRunSetup(
	configPath: string,
	options: CliOptions,
	screen: {store: ChatStore; chooser: ChooserBroker; keys: KeyBroker; signal: AbortSignal},
): Promise<import('./first-run-setup.js').FirstRunOutcome> {
	const {store, chooser, keys, signal} = screen;
	signal.addEventListener(
		'abort',
		() => {
			chooser.cancel();
			keys.cancel();
		},
		{once: true},
	);
	const [{runFirstRunSetup}, {loadRunCatalogue}] = await Promise.all([import('./first-run-setup.js'), import('../commands/run-catalogue.js')]);
	const outcome = await runFirstRunSetup(
		{
			configPath,
			configDir: dirname(configPath),
			env: process.env,
			signal,
			// Its extensions' warnings are said by the start that follows; here only the catalogue counts. Project code needs the trust question, which that start asks.
			loadCatalogue: async () => loadRunCatalogue({...options, askTrust: undefined}, () => {}),
		},
		{choose: async request => chooser.ask(request), askKey: async request => keys.ask(request), notice: (level, text) => store.notice(level, text)},
	);
	if (outcome.kind === 'configured') {
		const others = outcome.written.filter(path => path !== configPath);
		const saved = outcome.config === 'written' ? `saved ${outcome.provider}/${outcome.model} as the default in ${configPath}` : `using ${configPath} as it is`;
		store.notice('info', `set up: ${saved}${others.length === 0 ? '' : `; also wrote ${others.join(', ')}`}`);
	}

	return outcome;
}
