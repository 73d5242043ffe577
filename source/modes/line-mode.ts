import type {CliOptions} from '../run-cli.js';
import {exitCodes, errorMessage} from '../core/errors.js';
import {runTurn} from '../core/agent/run-turn.js';
import {createJsonRenderer} from './render-json.js';
import {createTextRenderer} from './render-text.js';
import {setupAgent, type Agent} from './setup.js';
import {handleInterrupts} from './interrupt.js';
import {turnExitCode} from './exit-code.js';
import {readLines} from './line-reader.js';
import {reportSetupError} from './report-setup-error.js';
import {drainStdout, writeErr} from './output.js';

/**
 * Line mode: each line of standard input is a user turn, answered in plain
 * text (or JSON events). Used whenever stdout is not a terminal. The exit
 * code is 0 when every turn finished, 1 when any failed, 130 on SIGINT.
 */
export async function runLineMode(options: CliOptions): Promise<number> {
	const emit = options.json ? createJsonRenderer() : createTextRenderer({announceSession: true});
	let agent: Agent;
	try {
		agent = await setupAgent(options, emit);
	} catch (error) {
		return reportSetupError(error, emit, options.json);
	}

	const interactive = process.stdin.isTTY === true;
	if (interactive && process.stdout.isTTY) writeErr('i: the full-screen chat is not built yet; running in line mode (one line, one turn; Ctrl-D to end)\n');
	const controller = new AbortController();
	// An interrupt while waiting for input has no turn to stop: end the input.
	const interrupts = handleInterrupts(controller, () => process.stdin.destroy());
	let failed = false;
	try {
		const prompt = () => interactive && writeErr('> ');
		prompt();
		for await (const line of readLines(process.stdin)) {
			if (line.trim() === '') {
				prompt();
				continue;
			}

			const outcome = await runTurn(line, {...agent, signal: controller.signal});
			if (outcome.reason === 'interrupted') break;
			if (turnExitCode(outcome) !== exitCodes.ok) failed = true;
			prompt();
		}
	} catch (error) {
		if (!controller.signal.aborted) {
			writeErr(`i: cannot read input: ${errorMessage(error)}\n`);
			failed = true;
		}
	} finally {
		await agent.session.close();
		interrupts.dispose();
		await drainStdout();
	}

	return interrupts.exitCode() ?? (failed ? exitCodes.turnFailed : exitCodes.ok);
}
