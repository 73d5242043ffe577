import {exitCodes, StartVetoError, UsageError, errorMessage} from '../core/errors.js';
import type {EmitEvent} from '../core/events.js';
import {printable, writeErr} from './output.js';

/** A failure before the first turn: always on stderr, and as an event in --json mode. */
export function reportSetupError(error: unknown, emit: EmitEvent, json: boolean): number {
	const [kind, code] = error instanceof UsageError ? ['usage', exitCodes.usage] : error instanceof StartVetoError ? ['veto', exitCodes.vetoed] : ['internal', exitCodes.turnFailed];
	const message = errorMessage(error);
	if (json) emit({type: 'error', message, kind});
	writeErr(`${printable(`i: ${message}`)}\n`);
	return code;
}
