import {createElement} from 'react';
import {render} from 'ink';
import type {CliOptions} from '../cli-options.js';
import {exitCodes} from '../core/errors.js';
import type {AskPerson} from '../core/agent/approval-gate.js';
import type {EventBus} from '../core/extensions/event-bus.js';
import type {Agent} from '../core/session/agent.js';
import {App} from '../../components/App.js';
import {offerPlan} from './plan-acceptance.js';
import {ApprovalBroker} from './brokers/approval-broker.js';
import {ChooserBroker} from './brokers/chooser-broker.js';
import {DialogBroker} from './brokers/dialog-broker.js';
import {KeyBroker} from './brokers/key-broker.js';
import {QuestionLine} from './brokers/open-question.js';
import {TrustBroker} from './brokers/trust-broker.js';
import type {ChatCore} from './chat-core.js';
import {submitText} from './chat-input.js';
import {ChatStart} from './chat-start.js';
import {ChatStore} from './chat-store.js';
import {ScreenStream} from './screen/screen-stream.js';
import type {CommandContext} from './commands/command-context.js';
import {CommandRegistry} from './commands/command-registry.js';
import {EarlyMessage} from './early-message.js';
import {EditorDraft} from './editor-draft.js';
import {MessageQueue} from './message-queue.js';
import {PromptHistoryFeed} from './prompt-history-feed.js';
import {rewindCommand} from './commands/rewind-command.js';
import {consoleToNotices} from './console-notices.js';
import {containExtensions} from '../shared/contain-extensions.js';
import {pauseFocusReporting} from './notify/focus-reporting.js';
import {markdownOptions} from './markdown/markdown-options.js';
import {Notifier} from './notify/notifier.js';
import {rememberRules} from './remember-rules.js';
import {ScreenExtensions} from './screen-extensions.js';
import {SessionActions} from './session-actions.js';
import {TurnController} from './turn-controller.js';
import {shownExact} from './shown-text.js';
import {suspendChat} from './suspend.js';
import {CLEAR_SCREEN, followTitle} from './terminal-title.js';
import {uiPromptEvents} from './ui-prompt-events.js';

/**
 * The full-screen chat, when stdin and stdout are terminals. The core runs
 * the turns; the store turns its events into screen state; the Ink app
 * renders that and hands the person's actions back here.
 */
export async function runTui(options: CliOptions): Promise<number> {
	// A new session is shown as one from the first frame; the one --continue, --session or --session-name opens once it is open.
	const fresh = options.session === undefined && options.sessionName === undefined && options.continueLatest !== true && options.resume !== true;
	const store = new ChatStore({model: '', workspace: '', session: null, newSession: fresh, usage: null, window: null}, {logo: options.logo, starting: true});
	// Extension code that prints would break the frames: its console output becomes notices.
	const restoreConsole = consoleToNotices((level, text) => store.notice(level, text));
	// From the first extension's import on: its faults are notices, never the end of the chat.
	// While an extension holds the screen, focus reports are off: the shell after a Ctrl-C must not receive them as typed text.
	const stopContaining = containExtensions(message => store.notice('warning', message), pauseFocusReporting);
	try {
		return await chat(options, store, restoreConsole);
	} finally {
		stopContaining();
		restoreConsole();
		// A screen that never came leaves the terminal raw (run-cli.ts set it so); Ink's unmount has left it so already.
		if (process.stdin.isTTY) process.stdin.setRawMode(false);
	}
}

/** What the person's keys reach once the agent is set up. */
interface ChatKeys {
	submit(text: string): boolean;
	interrupt(): void;
	/** Shift+Tab: the next permission mode. */
	cycleMode(): void;
	/** Esc twice on an empty editor: /rewind, when nothing runs. */
	rewind(): void;
}

/** The screen's parts the chat uses from the agent's set-up to its end. */
interface Screen {
	options: CliOptions;
	store: ChatStore;
	broker: ApprovalBroker;
	dialogs: DialogBroker;
	chooser: ChooserBroker;
	drafts: EditorDraft;
	notifier: Notifier;
	start: ChatStart;
	history: PromptHistoryFeed;
	/** The person's messages typed while a turn runs. */
	queue: MessageQueue;
	/** Hands the person's keys to the chat, and a message sent while it started with them. */
	connect(keys: ChatKeys): void;
	/** Ends the chat with an exit code (/exit, Ctrl-C twice, a signal). */
	finish(code: number): void;
	finished: Promise<number>;
	/** Draws answers as Markdown from now on, when it is on; null when it is off. */
	drawMarkdown: (() => Promise<void>) | null;
	/** The screen goes (its live region erased), and console output goes to the terminal again. */
	close(): Promise<void>;
	/** Writes to the terminal through the stream the screen draws on, which follows where the cursor goes. */
	write(bytes: string): void;
}

async function chat(options: CliOptions, store: ChatStore, restoreConsole: () => void): Promise<number> {
	// The extensions' handlers for i's own questions (UiPromptStart/End): the first ones while the agent is set up, then the agent's.
	let events: () => EventBus | null = () => null;
	const prompts = uiPromptEvents(() => events());
	// One question at a time: approvals, the trust question and the extensions' dialogs wait for each other on one line.
	const line = new QuestionLine();
	const broker = new ApprovalBroker(prompts, line);
	const trust = new TrustBroker(prompts, line);
	const dialogs = new DialogBroker(prompts, line);
	const chooser = new ChooserBroker(line);
	const keys = new KeyBroker(line);
	const drafts = new EditorDraft();
	const queue = new MessageQueue();
	const terminal = new ScreenStream(process.stdout);
	const write = (bytes: string) => void terminal.write(bytes);
	// The bell or a desktop notification when a turn ends or an approval waits while the person looks elsewhere; off until the settings are read.
	const notifier = new Notifier(write);
	const start = new ChatStart({
		options,
		store,
		trust,
		chooser,
		keys,
		setEvents: read => {
			events = read;
		},
	});
	const ended = await start.beforeScreen();
	if (ended !== null) return ended;

	// Set once setup succeeded; until then one message or command waits for it (--resume's picker comes first: none waits).
	let chatKeys: ChatKeys | null = null;
	const waiting = new EarlyMessage(store, options.resume !== true);
	const history = new PromptHistoryFeed(text => store.notice('warning', text));
	let finish!: (code: number) => void;
	const finished = new Promise<number>(resolve => {
		finish = resolve;
	});
	const onInterrupt = () => {
		// Ctrl-C or Esc while the plugins start (or the first-run setup asks): leave, as a signal would.
		if (store.getSnapshot().starting) start.leave();
		else chatKeys?.interrupt();
	};

	const instance = render(
		createElement(App, {
			store,
			broker,
			trust,
			dialogs,
			chooser,
			keys,
			drafts,
			history,
			queue,
			onSubmit: text => (chatKeys ? chatKeys.submit(text) : waiting.hold(text)),
			onInterrupt,
			onCycleMode: () => chatKeys?.cycleMode(),
			onRewind: () => chatKeys?.rewind(),
			onExit: () => finish(exitCodes.ok),
			onSuspend: () => suspendChat(store, write),
			onFocus: focused => notifier.focusChanged(focused),
		}),
		{stdout: terminal as unknown as NodeJS.WriteStream, exitOnCtrlC: false, patchConsole: false, maxFps: 30},
	);
	const drawMarkdown = loadMarkdown(store);
	// The earlier runs' prompts, behind the first frame: ↑ walks this run's meanwhile.
	history.start(async register => (await import('../core/session/prompt-history.js')).promptHistoryFile(options.cwd, register));
	// Once the screen is gone, console output (SessionShutdown handlers) goes to the terminal as in any program.
	const close = async () => {
		// The live region is erased first, so the shell's prompt comes on a clean line below the transcript.
		store.hideLive(true);
		await new Promise(resolve => setImmediate(resolve));
		instance.unmount();
		terminal.close();
		restoreConsole();
	};

	const askPerson: AskPerson = async (request, signal) => {
		store.asking(request.id, request.ask);
		notifier.approvalWaiting(shownExact(request.ask.title));
		return broker.askPerson(request, signal);
	};
	const started = await start.setUp({close}, askPerson);
	if (started.kind === 'ended') {
		waiting.dropped();
		return started.code;
	}

	const connect = (connected: ChatKeys) => {
		chatKeys = connected;
		waiting.send(connected.submit);
	};

	return chatWith(started.agent, started.core, {options, store, broker, dialogs, chooser, drafts, notifier, start, history, queue, connect, finish, finished, drawMarkdown, close, write});
}

/** The chat, from the agent's set-up to the end: the screen's parts wired to the agent, then the wait for the person to leave. */
async function chatWith(agent: Agent, core: ChatCore, screen: Screen): Promise<number> {
	const {options, store, broker, dialogs, chooser, notifier, start, queue} = screen;
	const turns: TurnController = new TurnController({
		agent,
		core,
		store,
		notifier,
		broker,
		queue,
		// Plan mode: the person accepts the plan or keeps planning once the model answered.
		afterAnswer() {
			if (agent.permissionMode.current === 'plan') void offerPlan({mode: agent.permissionMode, chooser, store, send: text => turns.start(text)});
		},
	});
	// "always, for this project" writes to the rules the agent holds, so the next call obeys them.
	if (agent.permissions) broker.provideRules(rememberRules(agent.permissions, (level, text) => store.notice(level, text)));
	const sessions = new SessionActions({agent, core, store, chooser, clearScreen: () => screen.write(CLEAR_SCREEN)});
	const registry = new CommandRegistry();
	const extensions = new ScreenExtensions({agent, store, registry, options});
	const context: CommandContext = {agent, store, chooser, turns, sessions, extensions, draft: screen.drafts, commands: registry, queue, leave: () => screen.finish(exitCodes.ok)};
	// The screen is the one head that can ask the person (api.runtime.uiDialog); kept across /reload.
	agent.provideRuntime({uiDialog: dialogs.ask});
	extensions.show();
	extensions.followMcp();
	agent.delivery.provideStarter({canStart: () => turns.mayTrigger(), start: () => turns.startTriggered()});
	// The person's queued messages reach a running turn after its tool batch, through the extensions' steer delivery.
	agent.delivery.provideSteering(turns.steering);
	extensions.watchDev(turns);
	// Before the first message can be sent, so every answer is drawn as Markdown.
	if (screen.drawMarkdown) await screen.drawMarkdown();
	// Behind the first frame, not waited for (the settings reader is the core's); the end waits for it, so reporting never stays on.
	const notifications = import('./notify/start-notifications.js')
		.then(async ({startNotifications}) => startNotifications(notifier, {env: process.env, configDir: core.resolveDirs().config_dir, isTTY: process.stdout.isTTY === true}))
		.catch((error: unknown) => {
			store.notice('warning', `notifications are off: ${(error as Error).message}`);
			return () => {};
		});
	// The saved theme, before a resumed history is drawn in it; a missing or broken one is said and the default stays.
	const themeProblem = await (await import('./theme/theme-setting.js')).applySavedTheme(core.resolveDirs().config_dir, agent.themeFolders);
	if (themeProblem !== undefined) store.notice('error', themeProblem);
	// A resumed session (--continue, --session) shows its history, drawn as Markdown when it is on.
	sessions.showOpened();
	store.started({model: agent.caller.model, workspace: agent.workspace, window: agent.budget?.window ?? null, mode: agent.permissionMode.current});
	const stopTitle = followTitle({store, approvals: broker, sessionPath: () => agent.session.path}, screen.write);
	// The keys reach the chat from here on; a message sent while it started goes first.
	screen.connect({
		submit: text => submitText(text, {registry, turns, queue, context, history: screen.history}),
		interrupt: () => turns.interrupt(),
		cycleMode: () => store.setStatus({mode: agent.permissionMode.cycle()}),
		rewind: () => {
			if (turns.mayStart()) rewindCommand.run(context, '').catch((error: unknown) => store.notice('error', (error as Error).message));
		},
	});
	// --resume: the picker comes once the screen is ready; the person may type meanwhile, as with any picker.
	if (options.resume === true) turns.track(sessions.resume(true).catch((error: unknown) => store.notice('error', (error as Error).message)));
	// A signal from outside ends the chat like /exit, after the running turn saved its last complete step.
	start.signal.addEventListener('abort', () => {
		turns.interrupt();
		screen.finish(start.exitCode());
	});

	const code = await screen.finished;
	turns.leave();
	agent.delivery.provideStarter(undefined);
	agent.delivery.provideSteering(undefined);
	extensions.stop();
	// Dialogs still open or waiting close as the person leaving; the extensions' SessionShutdown handlers get no new ones.
	dialogs.leave();
	chooser.cancel();
	turns.interrupt();
	// The interrupted turn saves its last complete step before the session closes.
	await turns.running;
	(await notifications)();
	// The last prompts (an /exit typed at once) reach the file before the process ends.
	await screen.history.settled();
	await screen.close();
	stopTitle();
	await agent.close();
	start.dispose();
	return code;
}

/**
 * The Markdown renderer and its highlighter are a chunk of their own, loaded
 * behind the first frame while the agent is set up. The function returned
 * puts it to use; a chunk that fails to load leaves the text plain and says so.
 */
function loadMarkdown(store: ChatStore): (() => Promise<void>) | null {
	const markdown = markdownOptions(process.env);
	if (markdown === null) return null;
	const load = new Promise(resolve => setImmediate(resolve)).then(async () => import('./markdown/render-markdown.js'));
	// Its failure is reported where it is awaited; the screen may end before that.
	load.catch(() => {});
	return async () => {
		try {
			store.setMarkdown((await load).createMarkdownRenderer(markdown));
		} catch (error) {
			store.notice('warning', `answers are shown as plain text: the Markdown renderer did not load (${(error as Error).message})`);
		}
	};
}
