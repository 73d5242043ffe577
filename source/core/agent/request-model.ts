import type {Message} from '../messages.js';
import type {EmitEvent} from '../events.js';
import type {ModelReply, StreamEvent, ToolSchema} from '../providers/types.js';
import type {ModelCaller} from '../providers/model-caller.js';
import type {ModelConfig} from '../config/schema.js';
import type {Session} from '../session/session-store.js';
import type {Usage} from '../usage.js';
import {TurnError} from '../errors.js';
import {readBudgetAnchored, readBudgetFigures, readBudgetFits, readToolBudget} from '../lifecycle/hook-results.js';
import type {TurnLifecycle} from '../lifecycle/turn-lifecycle.js';
import {withSystemPrompt} from '../history/with-system-prompt.js';
import {costOf} from '../usage-cost.js';
import {addSessionCost} from '../session/session-cost.js';
import {compactHistory, CompactionCancelledError, CompactionError, type CompactionIo, type CompactionReason} from './compact-history.js';
import {forModel} from './delivered-for-model.js';
import {toolOutputLimit} from './tool-output-limit.js';

/** What a model request needs of the turn (TurnContext has all of it). */
export interface RequestContext {
	caller: ModelCaller;
	session: Session;
	emit: EmitEvent;
	signal: AbortSignal;
	/** The API config's budget, for the `context_budget` and `before_request` hooks. */
	budget?: ModelConfig['budget'] | null;
	/** The API config's max_tokens: the budget's default output reserve. */
	maxTokens?: number | null;
}

/**
 * The request for the model's answer: the budget (compacting the history
 * when it does not fit and a compaction plugin is there), then the request
 * itself, with this run's system prompt when an extension changed it.
 */
export async function requestAnswer(context: RequestContext, lifecycle: TurnLifecycle, schemas: ToolSchema[], systemPrompt: string | undefined): Promise<ModelReply> {
	const {session} = context;
	if (lifecycle.measures) {
		let check = await fits(context, lifecycle, session.messages, schemas);
		if (!check.fits) {
			if (!lifecycle.compacts) {
				throw new TurnError(`the context budget says this request does not fit the model's window (${describeBudget(check.answer)}); start a new session or enable compaction`);
			}

			try {
				await compactHistory(compactionIo(context, lifecycle, schemas, 'budget'), check.answer);
			} catch (error) {
				// The budget still says no: a request that does not fit is never sent (spec/platform.md §7).
				if (error instanceof CompactionCancelledError) {
					throw new CompactionError(`the request does not fit the model's window (${describeBudget(check.answer)}) and ${error.message}, so nothing was sent; the history is unchanged`);
				}

				throw error;
			}

			// The history was replaced: the last usage measured another one.
			anchors.delete(session);
			check = await fits(context, lifecycle, session.messages, schemas);
		}

		const figures = readBudgetFigures(check.answer);
		if (figures) context.emit({type: 'budget', ...figures, anchored: readBudgetAnchored(check.answer)});
	}

	const messages = session.messages;
	const sent = systemPrompt === undefined ? messages : withSystemPrompt(messages, systemPrompt);
	const reply = await requestModel(context, lifecycle, sent, schemas, () => true, {spent: usage => emitUsage(context, usage)});
	if (reply.usage) anchors.set(session, {model: context.caller.model, input: reply.usage.input, output: reply.usage.output, request_messages: session.messages.length});
	else anchors.delete(session);
	return reply;
}

/**
 * The usage of each session's last model response and the number of history
 * messages its request carried: the budget anchors its estimate on it when
 * the history still starts with that request (spec/platform.md §7).
 */
const anchors = new WeakMap<Session, {model: string; input: number; output: number; request_messages: number}>();

/** The provider's count of the session's last request and how many messages it carried, or null: what /context anchors its figure on, as the budget does. */
export function lastUsageAnchor(session: Session): {model: string; input: number; output: number; request_messages: number} | null {
	return anchors.get(session) ?? null;
}

/** A request's usage with what it cost at the caller's prices and the session's total so far. */
export function emitUsage(context: Pick<RequestContext, 'caller' | 'session' | 'emit'>, usage: Usage): void {
	const {caller, session} = context;
	const cost = costOf(usage, caller.prices);
	context.emit({type: 'usage', model: caller.model, usage, cost, session_cost: addSessionCost(session, cost), prices: caller.prices ? {...caller.prices} : null});
}

/** What each result of a batch of `pending` calls may take: the fixed share, or less when the budget says so. */
export async function toolResultLimit(context: RequestContext, lifecycle: TurnLifecycle, schemas: ToolSchema[], history: Message[], pending: number): Promise<number> {
	const limit = toolOutputLimit(pending);
	if (!lifecycle.measures) return limit;
	const {answer} = await fits(context, lifecycle, history, schemas, pending);
	const share = readToolBudget(answer);
	return share === null ? limit : Math.min(limit, share);
}

function describeBudget(answer: Record<string, unknown>): string {
	const {estimate, limit} = answer;
	return typeof estimate === 'number' && typeof limit === 'number' ? `about ${estimate} tokens against a limit of ${limit}` : 'no figures given';
}

/** The compaction transaction's reach: the turn's lifecycle, the budget, and summary requests that are not shown as the answer. */
export function compactionIo(context: RequestContext, lifecycle: TurnLifecycle, schemas: ToolSchema[], reason: CompactionReason): CompactionIo {
	return {
		reason,
		lifecycle,
		session: context.session,
		emit: context.emit,
		model: context.caller.model,
		protocol: context.caller.protocol,
		budget: context.budget ?? null,
		tools: schemas,
		fits: async (history, tools) => fits(context, lifecycle, history, tools),
		// The summary is not the answer: its text is not shown.
		request: async (messages, tools) => requestModel(context, lifecycle, messages, tools, event => event.type !== 'text_delta' && event.type !== 'thinking_delta', null),
	};
}

/**
 * Asks the budget hooks whether a request with `history` and `tools` fits
 * (`pending` 0), or how much room the results of `pending` tool calls have.
 */
async function fits(context: RequestContext, lifecycle: TurnLifecycle, history: Message[], tools: ToolSchema[], pending = 0): Promise<{fits: boolean; answer: Record<string, unknown>}> {
	const answer = await lifecycle.budget({
		model: context.caller.model,
		protocol: context.caller.protocol,
		budget: context.budget ?? null,
		max_tokens: context.maxTokens ?? null,
		history,
		tools,
		pending,
		compact: lifecycle.compacts,
		last_usage: anchors.get(context.session) ?? null,
	});
	return {fits: readBudgetFits(answer), answer};
}

/**
 * One request through its lifecycle: before it, the send (with what runs
 * during it), after it. `answer` is given for the turn's answer, not for a
 * summary's request.
 */
async function requestModel(
	context: RequestContext,
	lifecycle: TurnLifecycle,
	history: Message[],
	tools: ToolSchema[],
	show: (event: StreamEvent) => boolean,
	answer: {spent(usage: Usage): void} | null,
): Promise<ModelReply> {
	const {caller, signal} = context;
	// Extension messages as plain user messages (their metadata stays local), those without content left out: every request, a summary's too.
	const outgoing = await lifecycle.beforeRequest(forModel(history), {caller, tools, budget: context.budget ?? null, signal});
	const reply = await caller.send(outgoing.request, {signal, ...lifecycle.sending(outgoing, show)});
	return lifecycle.afterResponse(reply, outgoing, answer);
}
