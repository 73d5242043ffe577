import type {CliOptions} from '../cli-options.js';
import {exitCodes, errorMessage} from '../core/errors.js';
import {createJsonRenderer} from './render-json.js';
import {createTextRenderer} from './render-text.js';
import {finalAnswers} from './final-answer.js';
import {setupAgent} from '../core/session/setup-agent.js';
import type {Agent} from '../core/session/agent.js';
import {headlessDialog} from '../core/extensions/headless-dialog.js';
import type {StartedPlugins} from '../core/session/start-plugins.js';
import {handleInterrupts} from '../shared/interrupt.js';
import {turnExitCode} from './exit-code.js';
import {InputIdleError, readLines} from './line-reader.js';
import {FIRST_BYTE_TIMEOUT_MS, IDLE_TIMEOUT_MS} from './read-prompt.js';
import {reportSetupError} from '../shared/report-setup-error.js';
import {NoModelConfigError} from '../core/config/load-config.js';
import {writeErr} from '../shared/output.js';
import {containExtensions} from '../shared/contain-extensions.js';
import {headlessPrompt} from './headless-prompt.js';

/**
 * Line mode: each line of standard input is a user turn, answered in plain
 * text (or JSON events). Used whenever stdout is not a terminal. The exit
 * code is 0 when every turn finished, 1 when any failed, 2 when a pipe on
 * stdin sent nothing at all, 130 on SIGINT.
 */
export async function runLineMode(options: CliOptions, started?: Promise<StartedPlugins>): Promise<number> {
	// The agent, once set up: whether its extensions may replace an answer decides whether the answer streams.
	let ready: Agent | undefined;
	const emit = finalAnswers(options.json ? createJsonRenderer() : createTextRenderer({announceSession: true, showMessages: true}), () => ready?.extensionEvents?.has('MessageEnd') ?? false);
	// Listening from the start: an interrupt during setup must not kill the process before it can clean up.
	// An interrupt while waiting for input has no turn to stop: it ends the input.
	const controller = new AbortController();
	const interrupts = handleInterrupts(controller, () => process.stdin.destroy());
	// From the first extension's import on: its faults are warnings, never the end of the run.
	const stopContaining = containExtensions(message => emit({type: 'warning', message}));
	let agent: Agent;
	try {
		agent = await setupAgent(options, emit, undefined, controller.signal, started);
		ready = agent;
		// Line mode reads prompts, not answers: an extension's dialog is refused, never answered in the person's name.
		agent.provideRuntime({uiDialog: headlessDialog(options.json ? 'line mode (--json)' : 'line mode')});
	} catch (error) {
		stopContaining();
		interrupts.dispose();
		return (
			interrupts.exitCode() ?? reportSetupError(error instanceof NoModelConfigError ? await (await import('../shared/first-run-commands.js')).firstRunError(error.path, options) : error, emit, options.json)
		);
	}

	// A run an extension started between prompts (sendMessage with triggerTurn: true); the next line waits for it.
	let triggered: Promise<void> | null = null;
	let reading = true;
	agent.delivery.provideStarter({
		canStart: () => reading && triggered === null && !controller.signal.aborted,
		async start() {
			const run = agent.runTurn(null, controller.signal);
			triggered = run.then(outcome => {
				if (turnExitCode(outcome) !== exitCodes.ok && outcome.reason !== 'interrupted') failed = true;
				triggered = null;
			});
			return run;
		},
	});
	const interactive = process.stdin.isTTY === true;
	let failed = false;
	let usage = false;
	// A person at a terminal may take their time; a pipe that stays open and silent must not hold us forever.
	const limits = interactive ? undefined : {firstByteMs: FIRST_BYTE_TIMEOUT_MS, idleMs: IDLE_TIMEOUT_MS};
	try {
		const prompt = () => interactive && writeErr('> ');
		prompt();
		for await (const line of readLines(process.stdin, limits)) {
			if (controller.signal.aborted) break;
			if (line.trim() === '') {
				prompt();
				continue;
			}

			if (triggered) await triggered;
			const content = await headlessPrompt(line, agent.workspace, emit, 'line mode', {mcp: agent.mcp, signal: controller.signal});
			if (content === null) {
				// Refused (a ! command, an image past the limits): like a failed turn, the next line still runs.
				failed = true;
				prompt();
				continue;
			}

			const outcome = await agent.runTurn(content, controller.signal);
			if (outcome.reason === 'interrupted') break;
			if (turnExitCode(outcome) !== exitCodes.ok) failed = true;
			prompt();
		}
	} catch (error) {
		if (error instanceof InputIdleError && error.kind === 'first') {
			writeErr(`i: ${error.message} on standard input, which is open but not a terminal; pipe the lines in and close stdin, or use -p TEXT\n`);
			usage = true;
		} else if (error instanceof InputIdleError) {
			writeErr(`i: warning: standard input stayed open with ${error.message}; ending\n`);
		} else if (!controller.signal.aborted) {
			writeErr(`i: cannot read input: ${errorMessage(error)}\n`);
			failed = true;
		}
	} finally {
		reading = false;
		agent.delivery.provideStarter(undefined);
		if (triggered) await triggered;
		await agent.close();
		stopContaining();
		interrupts.dispose();
	}

	return interrupts.exitCode() ?? (usage ? exitCodes.usage : failed ? exitCodes.turnFailed : exitCodes.ok);
}
