import {exitCodes, UsageError, errorMessage} from '../core/errors.js';
import type {EmitEvent} from '../core/events.js';
import {printable, writeErr} from './output.js';

/** A failure before the first turn: always on stderr, and as an event in --json mode. */
export function reportSetupError(error: unknown, emit: EmitEvent, json: boolean): number {
	const usage = error instanceof UsageError;
	const message = errorMessage(error);
	if (json) emit({type: 'error', message, kind: usage ? 'usage' : 'internal'});
	writeErr(`${printable(`i: ${message}`)}\n`);
	return usage ? exitCodes.usage : exitCodes.turnFailed;
}
