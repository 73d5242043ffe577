import type {CliOptions} from '../run-cli.js';
import {runTurn} from '../core/agent/run-turn.js';
import {createJsonRenderer} from './render-json.js';
import {createTextRenderer} from './render-text.js';
import {readPromptFromStdin} from './read-prompt.js';
import {setupAgent, type Agent} from './setup.js';
import {handleInterrupts} from './interrupt.js';
import {turnExitCode} from './exit-code.js';
import {reportSetupError} from './report-setup-error.js';
import {drainStdout} from './output.js';

/** `i -p`: one turn, the answer on stdout, exit. */
export async function runPrintMode(options: CliOptions): Promise<number> {
	const emit = options.json ? createJsonRenderer() : createTextRenderer({announceSession: false});
	let agent: Agent;
	let prompt: string;
	try {
		prompt = options.print === '' || options.print === undefined ? await readPromptFromStdin() : options.print;
		agent = await setupAgent(options, emit);
	} catch (error) {
		return reportSetupError(error, emit, options.json);
	}

	const controller = new AbortController();
	const interrupts = handleInterrupts(controller);
	try {
		const outcome = await runTurn(prompt, {...agent, signal: controller.signal});
		return interrupts.exitCode() ?? turnExitCode(outcome);
	} finally {
		await agent.session.close();
		interrupts.dispose();
		await drainStdout();
	}
}
