import type {EmitEvent} from '../core/events.js';

/**
 * Print mode, line mode and `--json` cannot take back what they wrote: while
 * an extension handles `MessageEnd` (`replaceable`), and so may replace the
 * answer's text, the answer's deltas are held and its text is written once
 * final, as one `text_delta` before its `message_end`. Without such an
 * extension every delta passes at once. An answer that never reached its
 * `message_end` (its request failed, the run was interrupted) was never
 * final and is not written: no handler saw it.
 */
export function finalAnswers(emit: EmitEvent, replaceable: () => boolean): EmitEvent {
	let held = false;
	return event => {
		switch (event.type) {
			case 'text_delta': {
				if (!held && !replaceable()) break;
				held = true;
				return;
			}

			case 'message_end': {
				if ((held || replaceable()) && event.text !== '') emit({type: 'text_delta', text: event.text});
				held = false;
				break;
			}

			case 'tool_call':
			case 'error':
			case 'done': {
				held = false;
				break;
			}

			default: {
				break;
			}
		}

		emit(event);
	};
}
