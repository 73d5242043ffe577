import type {CliOptions} from '../cli-options.js';
import {createJsonRenderer} from './render-json.js';
import {createTextRenderer} from './render-text.js';
import {finalAnswers} from './final-answer.js';
import {withPipedInput} from '../shared/piped-input.js';
import {readPipedInput, readPromptFromStdin} from './read-prompt.js';
import {setupAgent} from '../core/session/setup-agent.js';
import type {Agent} from '../core/session/agent.js';
import {headlessDialog} from '../core/extensions/headless-dialog.js';
import type {StartedPlugins} from '../core/session/start-plugins.js';
import {handleInterrupts} from '../shared/interrupt.js';
import {turnExitCode} from './exit-code.js';
import {reportSetupError} from '../shared/report-setup-error.js';
import {NoModelConfigError} from '../core/config/load-config.js';
import {containExtensions} from '../shared/contain-extensions.js';
import {headlessPrompt} from './headless-prompt.js';
import {exitCodes} from '../core/errors.js';

/** `i -p`: one turn, the answer on stdout, exit. */
export async function runPrintMode(options: CliOptions, started?: Promise<StartedPlugins>): Promise<number> {
	// The agent, once set up: whether its extensions may replace an answer decides whether the answer streams.
	let ready: Agent | undefined;
	const emit = finalAnswers(options.json ? createJsonRenderer() : createTextRenderer({announceSession: false}), () => ready?.extensionEvents?.has('MessageEnd') ?? false);
	// Listening from the start: an interrupt during setup must not kill the process before it can clean up.
	const controller = new AbortController();
	const interrupts = handleInterrupts(controller, () => process.stdin.destroy());
	// From the first extension's import on: its faults are warnings, never the end of the run.
	const stopContaining = containExtensions(message => emit({type: 'warning', message}));
	try {
		let agent: Agent;
		let prompt: string;
		try {
			// Flags left for the extensions may take words of the prompt as their values: the prompt is known once they loaded.
			const deferred = options.commandLine.pending;
			const warn = (message: string) => emit({type: 'warning', message});
			const promptOnStdin = options.print === '' || options.print === undefined;
			// With the prompt on the command line, a pipe or a file on stdin is input for it (`git diff | i -p "Review this"`).
			prompt = deferred ? '' : promptOnStdin ? await readPromptFromStdin() : withPipedInput(options.print!, await readPipedInput(process.stdin, warn));
			agent = await setupAgent(deferred ? options : {...options, firstMessage: promptOnStdin ? prompt : options.print}, emit, undefined, controller.signal, started);
			ready = agent;
			// No screen: an extension's dialog is refused, never answered in the person's name.
			agent.provideRuntime({uiDialog: headlessDialog(options.json ? 'i -p --json' : 'i -p')});
			if (deferred) {
				const words = options.commandLine.input().join(' ');
				prompt = words === '' ? await readPromptFromStdin() : withPipedInput(words, await readPipedInput(process.stdin, warn));
			}
		} catch (error) {
			return (
				interrupts.exitCode() ?? reportSetupError(error instanceof NoModelConfigError ? await (await import('../shared/first-run-commands.js')).firstRunError(error.path, options) : error, emit, options.json)
			);
		}

		try {
			const content = await headlessPrompt(prompt, agent.workspace, emit, 'i -p', {mcp: agent.mcp, signal: controller.signal});
			if (content === null) return exitCodes.usage;
			// The configured MCP servers started with the set-up; the one request a one-shot may have before a tool call holds their tools.
			await agent.mcp.waitForFirstRequest(message => emit({type: 'warning', message}), controller.signal);
			const outcome = await agent.runTurn(content, controller.signal);
			return interrupts.exitCode() ?? turnExitCode(outcome);
		} finally {
			await agent.close();
		}
	} finally {
		stopContaining();
		interrupts.dispose();
	}
}
