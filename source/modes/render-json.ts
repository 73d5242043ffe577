import type {CoreEvent, EmitEvent} from '../core/events.js';
import {writeOut} from '../shared/output.js';

/** `--json`: one core event per stdout line, each carrying the session's UUID. */
export function createJsonRenderer(): EmitEvent {
	let session: string | null = null;
	return (event: CoreEvent) => {
		if (event.type === 'session') session = event.id;
		writeOut(`${JSON.stringify({...event, session})}\n`);
	};
}
