import {createElement} from 'react';
import {render} from 'ink';
import type {CliOptions} from '../run-cli.js';
import {exitCodes} from '../core/errors.js';
import type {AskPerson} from '../core/agent/approval-gate.js';
import type {Agent} from '../core/start/setup-agent.js';
import {handleInterrupts} from '../modes/interrupt.js';
import {App} from '../../components/App.js';
import {ApprovalBroker} from './approval-broker.js';
import {ChatStore} from './chat-store.js';
import {keysHelp, parseSlashCommand} from './slash-commands.js';
import {chainMarkdownTransformers} from './markdown-transform.js';
import {runExtensionCommand} from './extension-command.js';
import {findPromptTemplate, parseTemplateCommand} from '../core/resources/prompt-template-file.js';

/**
 * The full-screen chat, when stdin and stdout are terminals. The core runs
 * the turns; the store turns its events into screen state; the Ink app
 * renders that and hands the person's actions back here.
 */
export async function runTui(options: CliOptions): Promise<number> {
	// The screen comes first and the agent is set up behind it: a person sees the chat at once, not after the plugins start.
	const store = new ChatStore({model: '', workspace: '', session: null, usage: null, window: null}, {logo: options.logo, starting: true});
	const broker = new ApprovalBroker();
	// Signals from outside (kill, a closing terminal): raw mode turns Ctrl-C into a key, so these are not the person's.
	const setupController = new AbortController();
	const interrupts = handleInterrupts(setupController);
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

	const startTurn = (text: string) => {
		store.addUser(text);
		turn = new AbortController();
		const controller = turn;
		running = core
			.runTurn(text, {...agent, signal: controller.signal})
			.then(
				() => {},
				(error: unknown) => store.notice('error', (error as Error).message),
			)
			.finally(() => {
				if (turn === controller) turn = null;
				store.setBusy(false);
			});
	};

	const command = async (name: string) => {
		switch (name) {
			case '/help': {
				store.notice('info', keysHelp(store.getSnapshot().commands));
				break;
			}

			case '/session': {
				store.notice('info', `session ${agent.session.id}\n${agent.session.path}\n${agent.session.messages.length} messages in ${agent.workspace}`);
				break;
			}

			case '/clear': {
				const next = await core.openSession({path: core.sessionPath({...options, session: undefined, sessionName: undefined}, agent.workspace, core.resolveDirs().data_dir), workspace: agent.workspace});
				await agent.session.close();
				agent = {...agent, session: next};
				store.setSession(next.id);
				store.notice('info', `new session ${next.id} (${next.path}); the previous one stays saved`);
				break;
			}

			case '/compact': {
				store.setBusy(true);
				try {
					const result = await core.compactNow({...agent, signal: new AbortController().signal});
					store.notice(result === 'compacted' ? 'info' : 'warning', result === 'compacted' ? 'the history was compacted' : result);
				} catch (error) {
					store.notice('error', (error as Error).message);
				} finally {
					store.setBusy(false);
				}

				break;
			}

			case '/exit': {
				finish(exitCodes.ok);
				break;
			}
		}
	};

	const submit = (text: string) => {
		history.push(text);
		const slash = parseSlashCommand(text, store.getSnapshot().commands);
		if (slash === null) {
			startTurn(text);
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
			if (!command) return;
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
		command(slash.name).catch((error: unknown) => store.notice('error', (error as Error).message));
	};

	const onInterrupt = () => {
		if (store.getSnapshot().starting) {
			// Ctrl-C or Esc while the plugins start: leave, as a signal would.
			setupController.abort();
			return;
		}

		interrupt();
	};

	const instance = render(createElement(App, {store, broker, history, onSubmit: submit, onInterrupt, onExit: () => finish(exitCodes.ok)}), {
		exitOnCtrlC: false,
		patchConsole: false,
		maxFps: 30,
	});
	try {
		const askPerson: AskPerson = async request => {
			store.asking(request.id);
			return broker.askPerson(request);
		};
		core = await import('./chat-core.js');
		agent = await core.setupAgent(options, event => store.apply(event), askPerson, setupController.signal);
	} catch (error) {
		// The screen goes, so the error is the last thing on the terminal, as in line mode.
		instance.clear();
		instance.unmount();
		interrupts.dispose();
		// Left during setup (a signal, Ctrl-C or Esc): not an error to report.
		if (setupController.signal.aborted) return interrupts.exitCode() ?? exitCodes.interrupted;
		const {reportSetupError} = core ?? (await import('./chat-core.js'));
		return reportSetupError(error, () => {}, false);
	}

	if (setupController.signal.aborted) {
		// Left while the last of the setup finished anyway.
		instance.clear();
		instance.unmount();
		await agent.close();
		interrupts.dispose();
		return interrupts.exitCode() ?? exitCodes.interrupted;
	}

	const {commands, markdownTransformers} = agent.extensionUi;
	store.extend({
		commands: [...commands].map(([name, command]) => ({name: `/${name}`, description: command.description, extension: command.extension})),
		...(markdownTransformers.length === 0 ? {} : {transform: chainMarkdownTransformers(markdownTransformers, message => store.notice('warning', message))}),
	});
	store.started({model: agent.caller.model, workspace: agent.workspace, window: agent.budget?.window ?? null});
	// A signal from outside ends the chat like /exit, after the running turn saved its last complete step.
	setupController.signal.addEventListener('abort', () => {
		interrupt();
		finish(interrupts.exitCode() ?? exitCodes.interrupted);
	});

	const code = await finished;
	interrupt();
	// The interrupted turn saves its last complete step before the session closes.
	await running;
	instance.unmount();
	await agent.close();
	interrupts.dispose();
	return code;
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
