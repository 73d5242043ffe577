import type {CoreEvent} from '../core/events.js';
import type {ChildItem} from './chat-state.js';
import {lastLine, shown} from './shown-text.js';

/** The live child agents after a `child` event, and the notice for one that ended. */
export function childChange(children: ChildItem[], event: Extract<CoreEvent, {type: 'child'}>): {children: ChildItem[]; notice?: {level: 'info' | 'warning'; text: string}} {
	const item: ChildItem = {id: event.id, role: shown(event.role), turns: event.turns, activity: shown(lastLine(event.activity))};
	const others = children.filter(child => child.id !== event.id);
	if (event.status === 'running') {
		const known = others.length < children.length;
		return {children: known ? children.map(child => (child.id === event.id ? item : child)) : [...others, item]};
	}

	const turns = `${event.turns} turn${event.turns === 1 ? '' : 's'}`;
	if (event.status === 'done') return {children: others, notice: {level: 'info', text: `child ${item.role} (${event.id}) ${item.activity} after ${turns}`}};
	return {children: others, notice: {level: 'warning', text: `child ${item.role} (${event.id}) failed after ${turns}: ${item.activity}`}};
}
