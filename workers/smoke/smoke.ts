import * as z from 'zod/mini';
import '../../source/core/zod-english.js';
import {UsageError} from '../../source/core/errors.js';
import {cacheHooks} from '../cache/cache.js';
import {cacheConfigSchema, type CacheConfig} from '../cache/config.js';
import {moduleConfigLoader} from '../serve/module-config-loader.js';
import type {WorkerDefinition} from '../serve/serve.js';
import {parseWorkerOptions} from '../serve/worker-options.js';

/** spec/platform.md §10: the output cap is 1..1024 tokens, 32 unless set. */
const MIN_OUTPUT_CAP = 1;
const MAX_OUTPUT_CAP = 1024; // spec/platform.md §10, also the smoke-thinking profile's cap
const DEFAULT_OUTPUT_CAP = 32; // spec/platform.md §10

/** spec/platform.md §10: the smoke policy's cache observation, relative to the workspace state folder, apart from the cache module's own. */
const SMOKE_CACHE_STATS = 'metrics/smoke-cache.json';

/** Observe only (no provider cache field is added), into the smoke file. */
const smokeCacheConfig: CacheConfig = cacheConfigSchema.parse({mode: 'observe', stats: SMOKE_CACHE_STATS});

const outputCapSchema = z.int().check(z.minimum(MIN_OUTPUT_CAP), z.maximum(MAX_OUTPUT_CAP));

/** `smoke.json`: the cap, which `--output-cap` overrides. */
const smokeConfigSchema = z.strictObject({
	output_cap: z._default(outputCapSchema, DEFAULT_OUTPUT_CAP),
});

/** The body field that caps output, per built-in protocol. */
const capFields: Record<string, string> = {
	openai: 'max_completion_tokens',
	deepseek: 'max_tokens',
	anthropic: 'max_tokens',
	responses: 'max_output_tokens',
};

/** Tool fields of a request body; `parallel_tool_calls` without tools is itself rejected by OpenAI. */
const toolFields = ['tools', 'tool_choice', 'parallel_tool_calls'];

const requestSchema = z.looseObject({protocol: z.string(), body: z.record(z.string(), z.unknown())});
const responseSchema = z.looseObject({response: z.looseObject({message: z.record(z.string(), z.unknown())})});

/**
 * `i --runtime worker smoke [--output-cap N] [--config FILE]`: the low-cost
 * connectivity policy of spec/platform.md §10. `before_request` removes the tools and
 * caps the output; `after_response` refuses a reply with tool calls. The
 * cache is only observed, into `metrics/smoke-cache.json` of the workspace
 * state folder (the cache module's hooks with a config of their own): after
 * the policy's edits, so the prediction sees the body that is sent, and
 * before the refusal, so a refused reply is still counted (spec/platform.md §6).
 * `name` is the module it serves: `smoke-thinking` is this worker with
 * `--output-cap 1024`.
 */
export function createWorker(args: string[], name = 'smoke'): WorkerDefinition {
	const options = parseWorkerOptions(name, args, {'output-cap': {type: 'string'}});
	const flagCap = options['output-cap'] === undefined ? undefined : parseOutputCap(options['output-cap'], name);
	const config = moduleConfigLoader('smoke', smokeConfigSchema, options.config);
	const cache = cacheHooks(async () => smokeCacheConfig, 'smoke_cache');
	return {
		name,
		hooks: {
			async before_request(data, context) {
				const parsed = requestSchema.safeParse(data);
				if (!parsed.success) throw new Error('smoke policy: before_request data needs "protocol" (a string) and "body" (an object)');
				const {protocol, body} = parsed.data;
				const cap = flagCap ?? (await config(context)).config.output_cap;
				const capped = Object.fromEntries(Object.entries(body).filter(([key]) => !toolFields.includes(key)));
				const field = capField(protocol, capped);
				const current = capped[field];
				if (!(typeof current === 'number' && Number.isInteger(current) && current > 0 && current <= cap)) capped[field] = cap;
				return cache.before_request({...data, body: capped}, context);
			},
			request_retry: cache.request_retry,
			async after_response(data, context) {
				const parsed = responseSchema.safeParse(data);
				if (!parsed.success) throw new Error('smoke policy: after_response data needs "response.message" (an object)');
				// Counted first: a reply this policy refuses was still served, and billed.
				const observed = await cache.after_response(data, context);
				if (hasToolCalls(parsed.data.response.message)) throw new Error('smoke policy: the model returned tool calls, which this policy refuses');
				return observed;
			},
		},
	};
}

/** `i --runtime worker smoke-thinking [--config FILE]`: the smoke policy with the cap at 1024, which no option changes. */
export function createThinkingWorker(args: string[]): WorkerDefinition {
	if (args.some(arg => arg === '--output-cap' || arg.startsWith('--output-cap='))) {
		throw new UsageError(`worker smoke-thinking: its output cap is ${MAX_OUTPUT_CAP}, fixed; for another one run the smoke worker with --output-cap N`);
	}

	return createWorker(['--output-cap', String(MAX_OUTPUT_CAP), ...args], 'smoke-thinking');
}

function parseOutputCap(text: string, name: string): number {
	const cap = /^\d+$/.test(text) ? Number(text) : Number.NaN;
	if (!outputCapSchema.safeParse(cap).success) {
		throw new UsageError(`worker ${name}: --output-cap must be a whole number of tokens from ${MIN_OUTPUT_CAP} to ${MAX_OUTPUT_CAP} (got "${text}")`);
	}

	return cap;
}

function capField(protocol: string, body: Record<string, unknown>): string {
	const field = capFields[protocol];
	if (field === undefined) throw new Error(`smoke policy: unknown protocol "${protocol}"; it caps output for ${Object.keys(capFields).join(', ')}`);
	// Chat Completions with `use_max_tokens` sends the older field; setting both is an error at OpenAI.
	if (protocol === 'openai' && body.max_tokens !== undefined && body.max_completion_tokens === undefined) return 'max_tokens';
	return field;
}

/** Tool calls in the neutral message, or in the raw blocks replayed for Anthropic and Responses. */
function hasToolCalls(message: Record<string, unknown>): boolean {
	const blocks = (value: unknown, type: string) => Array.isArray(value) && value.some(block => isRecord(block) && block.type === type);
	return (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) || blocks(message._anthropic_content, 'tool_use') || blocks(message._responses_output, 'function_call');
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}
