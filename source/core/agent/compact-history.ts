import * as z from 'zod/mini';
import '../zod-english.js';
import type {ImagePart, Message, UserContent} from '../messages.js';
import type {EmitEvent} from '../events.js';
import type {ModelReply, ToolSchema} from '../providers/types.js';
import {TurnError, errorMessage} from '../errors.js';
import {emptyHookChain, type HookChain} from '../lifecycle/hook-chain.js';
import {TurnLifecycle} from '../lifecycle/turn-lifecycle.js';
import {checkImageParts} from '../tools/images.js';
import {firstIssue} from '../session/session-schema.js';
import {messageSchema} from '../history/message-schema.js';
import type {Session} from '../session/session-store.js';
import {buildCandidate, commitProblem, cutProblem, estimateBytes} from '../history/compaction.js';
import {describeShapeProblem, historyShapeProblem} from '../history/history-shape.js';
import {transcript} from '../history/transcript.js';
import type {EventBus} from '../extensions/event-bus.js';

/** A compaction that could not be committed; the history is exactly as it was. */
export class CompactionError extends TurnError {
	override name = 'CompactionError';
}

/** An extension's `SessionBeforeCompact` gate cancelled the compaction before anything was summarised; the history is as it was. */
export class CompactionCancelledError extends CompactionError {
	override name = 'CompactionCancelledError';
	constructor(
		readonly extension: string,
		readonly reason: string | null,
	) {
		super(`extension ${extension} cancelled the compaction${reason ? ` (${reason})` : ''}`);
	}
}

/** Why a compaction runs: the budget said the next request does not fit, or the person asked (/compact). */
export type CompactionReason = 'budget' | 'manual';

export interface CompactionIo {
	session: Session;
	/** The turn's lifecycle: it runs each step's hooks and handlers and tells the head. */
	lifecycle?: TurnLifecycle;
	/** Without a lifecycle (a compaction run on its own), one is built from `hooks`, `events` and `emit`. */
	hooks?: HookChain;
	emit: EmitEvent;
	model: string;
	protocol: string;
	budget: unknown;
	tools: ToolSchema[];
	/** Asks the budget hooks whether `history` with `tools` fits; answers the budget's data. */
	fits(history: Message[], tools: ToolSchema[]): Promise<{fits: boolean; answer: Record<string, unknown>}>;
	/** One model request (through before_request / after_response), its text not shown as the answer. */
	request(messages: Message[], tools: ToolSchema[]): Promise<ModelReply>;
	reason: CompactionReason;
	/** Extension handlers: `SessionBeforeCompact` may cancel, `SessionCompact` observes the commit. */
	events?: EventBus | null;
}

const planSchema = z.looseObject({cut: z.optional(z.nullable(z.unknown())), state: z.optional(z.unknown())});
const beforeCompactSchema = z.looseObject({
	summary: z.optional(z.string()),
	prompt: z.optional(z.string().check(z.minLength(1))),
	text: z.optional(z.string()),
	images: z.optional(z.array(z.unknown())),
});
const afterCompactSchema = z.looseObject({summary: z.string()});
const commitSchema = z.looseObject({messages: z.array(messageSchema)});

/**
 * The compaction transaction (spec/platform.md §7), run when the budget says a request
 * does not fit and a compaction plugin is configured: compact_plan picks a
 * cut the core validates; before_compact returns either a local summary or
 * the prompt (and text, images) for a summary request, which itself must
 * fit; after_compact may adjust the summary; before_compact_commit may
 * restore the latest context snapshot; then the core checks that the
 * candidate keeps the system prompt and the kept tail verbatim, is a
 * history the provider accepts (history-shape.ts), is smaller
 * by the same estimate and fits, and only then commits it as one session
 * step. Any failure throws a CompactionError and commits nothing: the
 * history, on disk and in memory, is exactly as it was.
 *
 * Extensions (spec/extensions.md §5): `SessionBeforeCompact` is asked once
 * the cut is known and before anything is summarised (the summary request
 * is the costly part), so a cancel costs nothing; `SessionCompact` is told
 * after the commit.
 */
export async function compactHistory(io: CompactionIo, budgetAnswer: Record<string, unknown>): Promise<void> {
	const lifecycle = io.lifecycle ?? new TurnLifecycle({hooks: io.hooks ?? emptyHookChain, events: io.events ?? null, emit: io.emit});
	const history = [...io.session.messages];
	const fail = (message: string): never => {
		throw new CompactionError(`compaction failed, nothing was changed: ${message}`);
	};

	const plan = parse('compact_plan', planSchema, await lifecycle.compactPlan({budget: budgetAnswer, history, model: io.model, protocol: io.protocol}));
	if (plan.cut === null || plan.cut === undefined) {
		throw new CompactionError('the request does not fit the context window and the compaction plugin chose not to compact (cut: null)');
	}

	const problem = cutProblem(history, plan.cut);
	if (problem) fail(`compact_plan chose an invalid cut: ${problem}`);
	const cut = plan.cut as number;
	const state = plan.state ?? null;
	const prefix = history.slice(1, cut);
	const cancelled = await lifecycle.compactGate({reason: io.reason, sessionId: io.session.id, cut, messages: prefix, keptMessages: history.length - cut, budget: budgetAnswer});
	if (cancelled) throw new CompactionCancelledError(cancelled.extension, cancelled.reason);

	const prepared = parse('before_compact', beforeCompactSchema, await lifecycle.beforeCompact({messages: prefix, cut, state, model: io.model, protocol: io.protocol, budget: io.budget}));
	let summary: string;
	if (prepared.summary === undefined) {
		if (prepared.prompt === undefined) fail('before_compact returned neither a summary nor a prompt for the summary request');
		summary = await summarise(io, prepared.prompt!, prepared.text ?? transcript(prefix), prepared.images ?? [], fail);
	} else {
		summary = prepared.summary;
	}

	summary = parse('after_compact', afterCompactSchema, await lifecycle.afterCompact({summary, state})).summary;
	if (summary.trim() === '') fail('the summary is empty');
	const candidate = buildCandidate(history, cut, summary);
	// Each hook's answer is checked as it comes, so a bad one is blamed on its own hook; the last check read the final answer.
	let checked: Message[] | undefined;
	const answer = await lifecycle.beforeCompactCommit({messages: candidate, cut, state}, (data, hook) => {
		checked = readCommit(data, history, cut, hook);
	});
	const committed = checked ?? readCommit(answer, history, cut);
	const before = estimateBytes(history);
	const after = estimateBytes(committed);
	if (after >= before) fail(`the compacted history is not smaller (${after} bytes against ${before})`);
	if (!(await io.fits(committed, io.tools)).fits) fail('the compacted history still does not fit the budget');
	await io.session.replaceHistory(committed);
	lifecycle.compacted({reason: io.reason, sessionId: io.session.id, cut, summary, beforeBytes: before, afterBytes: after, messageCount: committed.length});
}

async function summarise(io: CompactionIo, prompt: string, text: string, images: unknown[], fail: (message: string) => never): Promise<string> {
	let parts: ImagePart[] = [];
	if (images.length > 0) {
		try {
			parts = checkImageParts(images);
		} catch (error) {
			fail(`before_compact returned images that were refused: ${errorMessage(error)}`);
		}
	}

	const content: UserContent = parts.length > 0 ? [{type: 'text', text}, ...parts] : text;
	const request: Message[] = [
		{role: 'system', content: prompt},
		{role: 'user', content},
	];
	// spec/platform.md §7: the summary request must fit too; no tool schema goes with it.
	if (!(await io.fits(request, [])).fits) fail('the summary request itself does not fit the budget');
	let reply: ModelReply;
	try {
		reply = await io.request(request, []);
	} catch (error) {
		return fail(`the summary request failed: ${errorMessage(error)}`);
	}

	if (reply.message.tool_calls?.length) fail('the summary request answered with tool calls instead of a summary');
	return reply.message.content ?? '';
}

/**
 * The history `before_compact_commit` hands back: it keeps the system prompt
 * and the kept tail verbatim, and it is one the provider accepts, for it
 * replaces the history every later request sends. `hook` names whose answer it is.
 */
function readCommit(data: Record<string, unknown>, history: readonly Message[], cut: number, hook = 'before_compact_commit hook'): Message[] {
	const committed = parse('before_compact_commit', commitSchema, data, hook).messages as Message[];
	const changed = commitProblem(history, cut, committed);
	if (changed) throw new CompactionError(`compaction failed, nothing was changed: ${hook} broke the candidate: ${changed}`);
	const shape = historyShapeProblem(committed);
	if (shape) throw new CompactionError(`compaction failed, nothing was changed: ${hook} returned a history the provider would refuse: ${describeShapeProblem(shape)}`);
	return committed;
}

function parse<T>(event: string, schema: z.ZodMiniType<T>, data: Record<string, unknown>, hook = `${event} hook`): T {
	const parsed = schema.safeParse(data);
	if (!parsed.success) throw new CompactionError(`compaction failed, nothing was changed: ${hook} returned data the core cannot use: ${firstIssue(parsed.error)}`);
	return parsed.data;
}
