import {exitCodes} from '../core/errors.js';
import type {TurnOutcome} from '../core/agent/run-turn.js';

export function turnExitCode(outcome: TurnOutcome): number {
	switch (outcome.reason) {
		case 'stop':
		case 'length':
		case 'content_filter': {
			return exitCodes.ok;
		}

		case 'interrupted': {
			return exitCodes.interrupted;
		}

		case 'error':
		case 'max_steps': {
			return exitCodes.turnFailed;
		}
	}
}
