import {createElement} from 'react';
import {render} from 'ink';
import type {CliOptions} from '../run-cli.js';
import {exitCodes} from '../core/errors.js';
import type {AskPerson} from '../core/agent/approval-gate.js';
import {compactNow, runTurn} from '../core/agent/run-turn.js';
import {openSession} from '../core/agent/session-store.js';
import {setupAgent, sessionPath, type Agent} from '../modes/setup.js';
import {reportSetupError} from '../modes/report-setup-error.js';
import {handleInterrupts} from '../modes/interrupt.js';
import {resolveDirs} from '../core/config/dirs.js';
import {App} from '../../components/App.js';
import {ApprovalBroker} from './approval-broker.js';
import {ChatStore} from './chat-store.js';
import {keysHelp, parseSlashCommand} from './slash-commands.js';

/**
 * The full-screen chat, when stdin and stdout are terminals. The core runs
 * the turns; the store turns its events into screen state; the Ink app
 * renders that and hands the person's actions back here.
 */
export async function runTui(options: CliOptions): Promise<number> {
	const store = new ChatStore({model: '', workspace: '', session: null, usage: null, window: null}, {logo: options.logo});
	const broker = new ApprovalBroker();
	// Signals from outside (kill, a closing terminal): raw mode turns Ctrl-C into a key, so these are not the person's.
	const setupController = new AbortController();
	const interrupts = handleInterrupts(setupController);
	let agent: Agent;
	try {
		const askPerson: AskPerson = async request => {
			store.asking(request.id);
			return broker.askPerson(request);
		};
		agent = await setupAgent(options, event => store.apply(event), askPerson, setupController.signal);
	} catch (error) {
		interrupts.dispose();
		return interrupts.exitCode() ?? reportSetupError(error, () => {}, false);
	}

	store.setStatus({model: agent.caller.model, workspace: agent.workspace, window: agent.budget?.window ?? null});
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
		running = runTurn(text, {...agent, signal: controller.signal})
			.then(() => {}, (error: unknown) => store.notice('error', (error as Error).message))
			.finally(() => {
				if (turn === controller) turn = null;
				store.setBusy(false);
			});
	};

	const command = async (name: string) => {
		switch (name) {
			case '/help': {
				store.notice('info', keysHelp);
				break;
			}

			case '/session': {
				store.notice('info', `session ${agent.session.id}\n${agent.session.path}\n${agent.session.messages.length} messages in ${agent.workspace}`);
				break;
			}

			case '/clear': {
				const next = await openSession({path: sessionPath({...options, session: undefined, sessionName: undefined}, agent.workspace, resolveDirs().data_dir), workspace: agent.workspace});
				await agent.session.close();
				agent = {...agent, session: next};
				store.setSession(next.id);
				store.notice('info', `new session ${next.id} (${next.path}); the previous one stays saved`);
				break;
			}

			case '/compact': {
				store.setBusy(true);
				try {
					const result = await compactNow({...agent, signal: new AbortController().signal});
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
		const slash = parseSlashCommand(text);
		if (slash === null) {
			startTurn(text);
			return;
		}

		if ('unknown' in slash) {
			store.notice('warning', `no command ${slash.unknown}; /help lists them`);
			return;
		}

		void command(slash.name);
	};

	const instance = render(createElement(App, {store, broker, history, onSubmit: submit, onInterrupt: interrupt, onExit: () => finish(exitCodes.ok)}), {
		exitOnCtrlC: false,
		patchConsole: false,
		maxFps: 30,
	});
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
