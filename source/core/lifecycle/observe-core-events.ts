import type {CoreEvent, EmitEvent} from '../events.js';
import type {EventBus} from '../extensions/event-bus.js';

/**
 * The observe events that mirror a core event (spec/extensions.md §5): the
 * emit a head gets also hands them to the extensions' queues, which never
 * hold the stream up. Each payload is its own object: the head's event is
 * not shared with extension code. They fire where the turn's lifecycle
 * emits their core event (turn-lifecycle.ts, docs/dev/lifecycle.md), after
 * the head got it.
 */
export function observeCoreEvents(events: EventBus, emit: EmitEvent): EmitEvent {
	return (event: CoreEvent) => {
		emit(event);
		switch (event.type) {
			case 'text_delta':
			case 'thinking_delta': {
				events.observe('MessageUpdate', {kind: event.type === 'text_delta' ? 'text' : 'thinking', delta: event.text});
				break;
			}

			case 'tool_started': {
				events.observe('ToolExecutionStart', {id: event.id, name: event.name});
				break;
			}

			case 'tool_update': {
				events.observe('ToolExecutionUpdate', {id: event.id, name: event.name, text: event.text});
				break;
			}

			case 'tool_result': {
				events.observe('ToolExecutionEnd', {id: event.id, name: event.name, output: event.output, isError: event.is_error});
				break;
			}

			default: {
				break;
			}
		}
	};
}
