import type {CoreEvent, EmitEvent} from '../core/events.js';
import {writeOut} from '../shared/output.js';
import {TurnTally} from './turn-result.js';

/** `--json`: one core event per stdout line, each carrying the session's UUID; after each `done`, the turn's `result`. */
export function createJsonRenderer(): EmitEvent {
	let session: string | null = null;
	const tally = new TurnTally();
	return (event: CoreEvent) => {
		if (event.type === 'session') session = event.id;
		tally.observe(event);
		writeOut(`${JSON.stringify({...event, session})}\n`);
		if (event.type === 'done') writeOut(`${JSON.stringify({...tally.result(event), session})}\n`);
	};
}
