import * as z from 'zod/mini';
import '../zod-english.js';
import type {AssistantMessage} from '../messages.js';
import type {Usage} from '../usage.js';
import {ProviderError} from '../providers/errors.js';
import type {FinishReason, ModelReply, StreamEvent} from '../providers/types.js';
import type {ProviderControl} from './api.js';
import {describeThrown} from './describe-thrown.js';

/** A streamed reply's first frame may take this long, as the HTTP layer gives a model's response headers (providers/http-limits.ts HEADERS_TIMEOUT_MS). */
export const PROVIDER_FIRST_FRAME_MS = 120_000;
/** Then it may stay silent this long, as the HTTP layer gives a streamed body (providers/http-limits.ts BODY_TIMEOUT_MS). */
export const PROVIDER_SILENCE_MS = 300_000;
/** A one-shot provider sends no frames: it gets the time a provider worker's call gets (worker-provider.ts PROVIDER_CALL_TIMEOUT_MS). */
export const PROVIDER_ONE_SHOT_MS = 600_000;
/** spec/platform.md §6: a model's reply body is at most 48 MiB (providers/http-limits.ts MAX_BODY_BYTES); a provider's streamed deltas get as many characters. */
export const MAX_PROVIDER_DELTA_CHARS = 48 * 1024 * 1024;
/** `waitCancelled(ms)` never arms a timer longer than node can (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface RunLimits {
	firstFrameMs: number;
	silenceMs: number;
	oneShotMs: number;
	/** Characters of all deltas of one request together. */
	deltaChars: number;
}

export const defaultRunLimits: RunLimits = {firstFrameMs: PROVIDER_FIRST_FRAME_MS, silenceMs: PROVIDER_SILENCE_MS, oneShotMs: PROVIDER_ONE_SHOT_MS, deltaChars: MAX_PROVIDER_DELTA_CHARS};

const count = z.int().check(z.nonnegative());
const usageSchema = z.object({input: count, output: count, cacheRead: z.optional(count), cacheWrite: z.optional(count)});
const index = {contentIndex: count};
const frameSchemas: Record<string, z.ZodMiniType> = {
	start: z.object({}),
	text_start: z.object(index),
	text_end: z.object(index),
	thinking_start: z.object(index),
	thinking_end: z.object(index),
	toolcall_start: z.object({...index, id: z.optional(z.string()), name: z.optional(z.string())}),
	toolcall_end: z.object(index),
	text_delta: z.object({...index, delta: z.string()}),
	thinking_delta: z.object({...index, delta: z.string()}),
	toolcall_delta: z.object({...index, delta: z.string()}),
	usage: z.object({usage: usageSchema}),
};
const contentTypes = new Set(['text_delta', 'thinking_delta', 'toolcall_delta']);

const messageSchema = z.object({
	role: z.literal('assistant'),
	content: z.nullable(z.string()),
	tool_calls: z.optional(
		z.array(
			z.object({
				id: z.string().check(z.minLength(1)),
				type: z.literal('function'),
				function: z.object({name: z.string().check(z.minLength(1)), arguments: z.string()}),
			}),
		),
	),
	reasoning_content: z.optional(z.string()),
	finish_reason: z.optional(z.string()),
	usage: z.optional(usageSchema),
});

const finishReasons: readonly FinishReason[] = ['stop', 'tool_calls', 'length', 'content_filter'];

type Outcome = {ok: true; reply: ModelReply} | {ok: false; error: ProviderError};

/**
 * One request to an extension provider, from its first frame to its one
 * terminal (spec/extensions.md §5). The terminal is whichever comes first: the
 * extension's message, its failure, a cancel, or an idle limit; everything
 * after it is dropped. A cancel latches the control plane, aborts the
 * extension's signal and ends the request at once with an `aborted` error
 * that keeps the text shown and the last usage: the host never waits for an
 * extension that ignores it.
 */
export class ProviderRun {
	readonly #label: string;
	readonly #emit: (event: StreamEvent) => void;
	readonly #warn: (message: string) => void;
	readonly #limits: RunLimits;
	readonly #controller = new AbortController();
	readonly #waiters = new Set<(cancelled: boolean) => void>();
	#cancelled = false;
	#outcome: Outcome | undefined;
	#settle: ((outcome: Outcome) => void) | undefined;
	readonly #terminal: Promise<Outcome>;
	#timer: NodeJS.Timeout | undefined;
	#text = '';
	#thinking = '';
	#usage: Usage | null = null;
	#warned = false;
	/** A frame came: from then on the limit is the stream's silence (only a streaming request gets frames). */
	#framed = false;
	#deltaChars = 0;

	constructor(options: {label: string; streaming: boolean; emit: (event: StreamEvent) => void; warn: (message: string) => void; limits: RunLimits}) {
		this.#label = options.label;
		this.#emit = options.emit;
		this.#warn = options.warn;
		this.#limits = options.limits;
		this.#terminal = new Promise(resolve => (this.#settle = resolve));
		this.#arm(options.streaming ? options.limits.firstFrameMs : options.limits.oneShotMs, options.streaming ? 'sent no frame' : 'did not answer');
	}

	/** The extension's signal: aborts on cancel and on an idle limit. */
	get signal(): AbortSignal {
		return this.#controller.signal;
	}

	get control(): ProviderControl {
		return {
			isCancelled: () => this.#cancelled,
			waitCancelled: async (ms: number) => this.#waitCancelled(ms),
		};
	}

	/** The ModelReply, or the ProviderError, of the one terminal. */
	async result(): Promise<ModelReply> {
		const outcome = await this.#terminal;
		if (outcome.ok) return outcome.reply;
		throw outcome.error;
	}

	/** `emit` as the extension calls it. */
	frame(value: unknown): boolean {
		const type = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as {type?: unknown}).type : undefined;
		const content = typeof type === 'string' && contentTypes.has(type);
		// After the terminal: content is refused (the extension should stop), a structural frame is acknowledged after a cancel (spec/extensions.md §5) and dropped either way.
		if (this.#outcome) return !content && this.#cancelled;
		if (typeof type !== 'string') {
			this.#malformed(`a frame without a string "type" (${preview(value)})`);
			return true;
		}

		const schema = frameSchemas[type];
		// Unknown types are ignored (forward compatibility); they still show the provider is alive.
		this.#alive();
		if (!schema) return true;
		const parsed = schema.safeParse(value);
		if (!parsed.success) {
			const issue = parsed.error.issues[0];
			this.#malformed(`a "${type}" frame with a bad ${issue?.path.join('.') || 'shape'} (${issue?.message ?? 'invalid'})`);
			return true;
		}

		const frame = parsed.data as {delta?: string; usage?: z.infer<typeof usageSchema>};
		if (frame.delta) {
			this.#deltaChars += frame.delta.length;
			if (this.#deltaChars > this.#limits.deltaChars) {
				// Like an HTTP body past its limit: the request fails, and the extension is told to stop.
				this.#latch();
				this.#fail(`the reply's deltas passed ${this.#limits.deltaChars} characters`, 'stream');
				return false;
			}
		}

		if (type === 'text_delta' && frame.delta) {
			this.#text += frame.delta;
			this.#emit({type: 'text_delta', text: frame.delta});
		} else if (type === 'thinking_delta' && frame.delta) {
			this.#thinking += frame.delta;
			this.#emit({type: 'thinking_delta', text: frame.delta});
		} else if (type === 'usage' && frame.usage) {
			this.#usage = toUsage(frame.usage);
		}

		return true;
	}

	/**
	 * The host's HTTP layer waits `delayMs` before sending the request again
	 * (`io.completions`); until the first frame, the wait does not count
	 * against the first frame's limit.
	 */
	retrying(delayMs: number): void {
		if (this.#outcome || this.#framed) return;
		this.#arm(delayMs + this.#limits.firstFrameMs, 'sent no frame');
	}

	/** The person cancelled (or the turn ended): the terminal now, keeping what was shown. */
	cancel(): void {
		if (this.#outcome) return;
		this.#latch();
		const error = new ProviderError(`${this.#label}: request cancelled`, {kind: 'aborted', partialText: this.#text});
		if (this.#usage) error.usage = this.#usage;
		this.#end({ok: false, error});
	}

	/** What `request` resolved with; ignored after the terminal (a late success never replaces a cancel). */
	resolved(value: unknown): void {
		if (this.#outcome) return;
		const parsed = messageSchema.safeParse(value);
		if (!parsed.success) {
			const issue = parsed.error.issues[0];
			const where = issue?.path.length ? issue.path.join('.') : 'the value';
			this.#fail(`request resolved with something that is not an assistant message (${where}: ${issue?.message ?? 'invalid'}); it must resolve with {role: 'assistant', content, tool_calls?}`, 'stream');
			return;
		}

		const answer = parsed.data;
		const message: AssistantMessage = {role: 'assistant', content: answer.content};
		if (answer.tool_calls && answer.tool_calls.length > 0) message.tool_calls = answer.tool_calls;
		if (answer.reasoning_content !== undefined) message.reasoning_content = answer.reasoning_content;
		// The final message is authoritative: what the frames did not show of it is shown now.
		this.#showRest('thinking_delta', this.#thinking, answer.reasoning_content ?? '');
		this.#showRest('text_delta', this.#text, answer.content ?? '');
		const raw = answer.finish_reason ?? null;
		const finishReason: FinishReason = raw === null ? (message.tool_calls ? 'tool_calls' : 'stop') : finishReasons.includes(raw as FinishReason) ? (raw as FinishReason) : 'other';
		const usage = answer.usage ? toUsage(answer.usage) : this.#usage;
		this.#end({ok: true, reply: {message, finishReason, rawFinishReason: raw, usage}});
	}

	/** `request` threw or rejected. */
	rejected(error: unknown): void {
		if (this.#outcome) return;
		// The host's own error, from `io.completions`: its kind (a truncated stream, an HTTP status, a cancel) and what it showed stay.
		if (error instanceof ProviderError) {
			const failure = new ProviderError(`${this.#label}: ${error.message}`, {
				kind: error.kind,
				...(error.status === undefined ? {} : {status: error.status}),
				partialText: this.#text,
				retryable: error.retryable,
			});
			failure.usage = error.usage ?? this.#usage;
			this.#end({ok: false, error: failure});
			return;
		}

		const status = (error as {status?: unknown} | null)?.status;
		this.#fail(`request failed: ${describeThrown(error)}`, typeof status === 'number' ? 'http' : 'network', typeof status === 'number' ? status : undefined);
	}

	#fail(reason: string, kind: 'stream' | 'network' | 'http', status?: number): void {
		const error = new ProviderError(`${this.#label}: ${reason}`, {kind, partialText: this.#text, ...(status === undefined ? {} : {status})});
		if (this.#usage) error.usage = this.#usage;
		this.#end({ok: false, error});
	}

	/** Cancellation's side the extension sees: the flag, its signal, its waiters. */
	#latch(): void {
		if (this.#cancelled) return;
		this.#cancelled = true;
		this.#controller.abort(new Error('the request was cancelled'));
		for (const wake of this.#waiters) wake(true);
		this.#waiters.clear();
	}

	#end(outcome: Outcome): void {
		this.#outcome = outcome;
		clearTimeout(this.#timer);
		// A request that ended otherwise wakes its waiters with false: nothing will cancel it now.
		for (const wake of this.#waiters) wake(false);
		this.#waiters.clear();
		this.#settle!(outcome);
	}

	async #waitCancelled(ms: number): Promise<boolean> {
		if (this.#cancelled) return true;
		if (this.#outcome) return false;
		const wait = typeof ms === 'number' && Number.isFinite(ms) ? Math.min(Math.max(0, ms), MAX_TIMER_MS) : 0;
		return new Promise(resolve => {
			const timer = setTimeout(() => {
				this.#waiters.delete(wake);
				resolve(false);
			}, wait);
			const wake = (cancelled: boolean) => {
				clearTimeout(timer);
				resolve(cancelled);
			};

			this.#waiters.add(wake);
		});
	}

	#alive(): void {
		// Per frame, so per token: the silence timer is only pushed back, not made again.
		if (this.#framed) {
			this.#timer?.refresh();
			return;
		}

		this.#framed = true;
		this.#arm(this.#limits.silenceMs, 'went silent');
	}

	#arm(ms: number, what: string): void {
		clearTimeout(this.#timer);
		this.#timer = setTimeout(() => {
			if (this.#outcome) return;
			const limit = ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
			const reason = this.#framed ? `the stream ${what} for ${limit}` : `the provider ${what} within ${limit}`;
			// The extension is told to stop, as on a cancel: nobody waits for its answer any more.
			this.#latch();
			this.#fail(reason, 'network');
		}, ms);
	}

	#malformed(what: string): void {
		if (this.#warned) return;
		this.#warned = true;
		this.#warn(`${this.#label}: ignored ${what}; later malformed frames of this request are ignored without a word`);
	}

	#showRest(type: 'text_delta' | 'thinking_delta', shown: string, final: string): void {
		if (final.length > shown.length && final.startsWith(shown)) this.#emit({type, text: final.slice(shown.length)});
	}
}

function toUsage(usage: z.infer<typeof usageSchema>): Usage {
	const cacheRead = usage.cacheRead ?? 0;
	const cacheWrite = usage.cacheWrite ?? 0;
	return {input: usage.input, output: usage.output, cacheRead, cacheWrite, raw: {input: usage.input, output: usage.output, cacheRead, cacheWrite}};
}

function preview(value: unknown): string {
	let text: string;
	try {
		text = JSON.stringify(value) ?? String(value);
	} catch {
		text = String(value);
	}

	return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
