import type {AssistantMessage, Message} from '../messages.js';

/**
 * The shape of a history that every provider accepts: a system message only
 * first; every tool result answers a tool call of the assistant message
 * before it, in the same step; every tool call gets exactly one result
 * before the next user or assistant message; no tool call ID twice in one
 * assistant message (results are matched by it); and an
 * assistant's replayed provider items name the same tool calls as its
 * `tool_calls`, since the Anthropic and Responses adapters send those items
 * instead. A history that breaks one of these is refused with HTTP 400 on
 * every later request, so it must never be saved: hook answers, model
 * replies and session steps are all checked here before they are kept.
 */

export interface ShapeProblem {
	/** The message at fault, as an index into the messages checked (a step's own messages, for a step). */
	index: number;
	role: string;
	/** What is wrong with it, in words. */
	problem: string;
}

export interface StepOptions {
	/** The step replaces the whole history (a compaction checkpoint): it is checked as a history of its own. */
	replaces?: boolean;
	/** The last message is a reply whose tool calls are about to run: their results may not be there yet. */
	awaitingResults?: boolean;
}

/** The first thing a provider would refuse in `messages`, a whole history, or null when it is well formed. */
export function historyShapeProblem(messages: readonly Message[], options: Pick<StepOptions, 'awaitingResults'> = {}): ShapeProblem | null {
	return new HistoryShape().problemOf(messages, options);
}

/** `message 3 (tool): …`, for errors that also say whose answer it was. */
export function describeShapeProblem(problem: ShapeProblem): string {
	return `message ${problem.index} (${problem.role}): ${problem.problem}`;
}

/** The tool calls of the assistant message a run of tool results answers. */
interface OpenCalls {
	index: number;
	/** Call ID to tool name, for calls with no result yet. */
	awaiting: Map<string, string>;
	answered: Set<string>;
	ids: string[];
}

/**
 * A history checked step by step, for the session file: a step is checked
 * against what came before without changing it (problemOf), and added once
 * it is kept (add), so a step that fails to be written leaves no trace here.
 * Steps are complete: each ends with every tool call answered.
 */
export class HistoryShape {
	/** Messages in the history so far: a system message may only be the first. */
	#length = 0;

	problemOf(step: readonly Message[], options: StepOptions = {}): ShapeProblem | null {
		const start = options.replaces ? 0 : this.#length;
		let open: OpenCalls | null = null;
		for (const [index, message] of step.entries()) {
			const fault = (problem: string): ShapeProblem => ({index, role: String(message.role), problem});
			if (open && open.awaiting.size > 0 && message.role !== 'tool') return unanswered(open, index);
			switch (message.role) {
				case 'system': {
					if (start + index !== 0) return fault('a system message may only come first in the history');
					open = null;
					break;
				}

				case 'user': {
					open = null;
					break;
				}

				case 'assistant': {
					const calls = message.tool_calls ?? [];
					// An ID an earlier step used is no fault: results pair with the calls of the message before them, and
					// some OpenAI-compatible servers number their calls afresh in every reply.
					const seen = new Set<string>();
					for (const [position, call] of calls.entries()) {
						if (call.id === '') return fault(`tool call ${position + 1} has no ID`);
						if (call.function.name === '') return fault(`tool call ${quote(call.id)} has no tool name`);
						if (seen.has(call.id)) return fault(`tool call ID ${quote(call.id)} appears twice in this message`);
						seen.add(call.id);
					}

					const replay = replayProblem(
						message,
						calls.map(call => call.id),
					);
					if (replay) return fault(replay);
					open = calls.length > 0 ? {index, awaiting: new Map(calls.map(call => [call.id, call.function.name])), answered: new Set(), ids: calls.map(call => call.id)} : null;
					break;
				}

				case 'tool': {
					const id = message.tool_call_id;
					if (open?.answered.has(id)) return fault(`a second result for tool call ${quote(id)}; each call gets exactly one`);
					if (!open?.awaiting.has(id)) {
						const called = open ? ` (message ${open.index} called ${open.ids.map(quote).join(', ')})` : '';
						return fault(`the tool result for ${quote(id)} answers no tool call of the assistant message before it${called}`);
					}

					open.awaiting.delete(id);
					open.answered.add(id);
					break;
				}

				default: {
					return fault(`role ${quote(String((message as {role: unknown}).role))} is not system, user, assistant or tool`);
				}
			}
		}

		if (open && open.awaiting.size > 0 && !(options.awaitingResults && open.index === step.length - 1)) return unanswered(open, null);
		return null;
	}

	/** Adds a step problemOf found no fault in. */
	add(step: readonly Message[], options: Pick<StepOptions, 'replaces'> = {}): void {
		this.#length = (options.replaces ? 0 : this.#length) + step.length;
	}
}

function unanswered(open: OpenCalls, next: number | null): ShapeProblem {
	const [id, name] = [...open.awaiting][0]!;
	const before = next === null ? '' : ` before message ${next}`;
	return {index: open.index, role: 'assistant', problem: `tool call ${quote(id)} (${name}) gets no result${before}; every tool call needs exactly one`};
}

/**
 * The Anthropic adapter replays `_anthropic_content` in place of the text
 * and tool calls (unless nothing but empty text is left of it), the
 * Responses adapter `_responses_output` whenever it is there: the tool calls
 * those items name are the ones the provider sees, so they must be these.
 */
function replayProblem(message: AssistantMessage, ids: string[]): string | null {
	const anthropic = message._anthropic_content;
	if (Array.isArray(anthropic) && anthropic.some(block => !isEmptyText(block))) {
		const named = itemIds(anthropic, 'tool_use', 'id');
		if (!sameIds(named, ids)) return `its _anthropic_content, sent in its place, names tool calls ${list(named)} where tool_calls has ${list(ids)}`;
	}

	const responses = message._responses_output;
	if (Array.isArray(responses)) {
		const named = itemIds(responses, 'function_call', 'call_id');
		if (!sameIds(named, ids)) return `its _responses_output, sent in its place, names tool calls ${list(named)} where tool_calls has ${list(ids)}`;
	}

	return null;
}

function itemIds(items: unknown[], type: string, key: string): string[] {
	return items.flatMap(item => {
		if (typeof item !== 'object' || item === null) return [];
		const record = item as Record<string, unknown>;
		return record.type === type ? [String(record[key])] : [];
	});
}

function isEmptyText(block: unknown): boolean {
	if (typeof block !== 'object' || block === null) return false;
	const {type, text} = block as {type?: unknown; text?: unknown};
	return type === 'text' && (typeof text !== 'string' || text.trim() === '');
}

/** The same calls, in any order: results are matched by ID. */
function sameIds(a: string[], b: string[]): boolean {
	const sorted = [...b].sort();
	return a.length === b.length && [...a].sort().every((id, index) => id === sorted[index]);
}

function list(ids: string[]): string {
	return ids.length === 0 ? '(none)' : ids.map(quote).join(', ');
}

function quote(text: string): string {
	return JSON.stringify(text);
}
