import * as z from 'zod/mini';
import '../../source/core/zod-english.js';
import {resolveFromConfig} from '../../source/core/config/module-config.js';
import type {Message} from '../../source/core/messages.js';
import {chooseCut} from './compact-cut.js';
import {jsonBytes, prefixImages, summaryText} from './compact-text.js';
import {moduleConfigLoader} from '../serve/module-config-loader.js';
import {readPromptFile} from '../serve/prompt-file.js';
import {parseHookData} from '../serve/hook-data.js';
import type {WorkerDefinition} from '../serve/serve.js';
import {parseWorkerOptions} from '../serve/worker-options.js';

/** `compact.json` (spec/platform.md §7). */
const compactConfigSchema = z.strictObject({
	enabled: z._default(z.boolean(), true),
	/** Messages after the cut, at least. */
	keep_recent: z._default(z.int().check(z.minimum(1), z.maximum(1000)), 4),
	/** Images of the summarised part go with the summary request (keep) or not (drop). */
	images: z._default(z.enum(['keep', 'drop']), 'keep'),
	/** A prompt file for the summary request, relative to this config's folder; else the embedded one. */
	prompt: z.optional(z.string().check(z.minLength(1))),
});

export const DEFAULT_COMPACT_PROMPT = [
	"You compact the earlier part of a coding session so it can go on within the model's context window.",
	'Write a concise summary that keeps: what the person asked for and why; decisions made; files read, created or changed (with their paths);',
	'commands run and the results that matter; errors and how they were resolved; and what is still to do.',
	'Keep names, paths and numbers exact. Do not invent anything. Plain text, no preamble.',
].join(' ');

/** Bytes kept free in the summary request for its framing (roles, the JSON around the text). */
const FRAMING_BYTES = 512;

const planSchema = z.looseObject({history: z.array(z.looseObject({role: z.string()})), budget: z.optional(z.record(z.string(), z.unknown()))});
const beforeSchema = z.looseObject({
	messages: z.array(z.looseObject({role: z.string()})),
	state: z.optional(z.unknown()),
	prompt: z.optional(z.string()),
	budget: z.optional(z.nullable(z.looseObject({image_tokens: z.optional(z.number())}))),
});
const afterSchema = z.looseObject({summary: z.string()});
const stateSchema = z.looseObject({limit: z.number()});

/**
 * `i --runtime worker compact [--config FILE]`: the compaction plugin
 * (spec/platform.md §7). `compact_plan` picks the cut (`chooseCut`) and
 * passes the budget's limit on as `state`; `before_compact` gives the prompt
 * and the text of the old prefix, sized so the summary request fits that
 * limit (plus the prefix's images when `images` is keep); `after_compact`
 * trims the summary. The core validates all of it and commits or changes
 * nothing.
 */
export function createWorker(args: string[]): WorkerDefinition {
	const options = parseWorkerOptions('compact', args);
	const config = moduleConfigLoader('compact', compactConfigSchema, options.config);
	return {
		name: 'compact',
		hooks: {
			async compact_plan(data, context) {
				const {config: settings} = await config(context);
				const plan = parseHookData('compact_plan', planSchema, data);
				if (!settings.enabled) return {...data, cut: null};
				const limit = plan.budget?.limit;
				return {
					...data,
					cut: chooseCut(plan.history as unknown as Message[], settings.keep_recent),
					state: typeof limit === 'number' ? {limit} : null,
				};
			},

			async before_compact(data, context) {
				const loaded = await config(context);
				const input = parseHookData('before_compact', beforeSchema, data);
				const prompt = input.prompt ?? (loaded.config.prompt === undefined ? DEFAULT_COMPACT_PROMPT : await readPromptFile(resolveFromConfig(loaded.path, loaded.config.prompt), context.workspace));
				const prefix = input.messages as unknown as Message[];
				const state = stateSchema.safeParse(input.state);
				const room = state.success ? state.data.limit - jsonBytes(prompt) - FRAMING_BYTES : Number.POSITIVE_INFINITY;
				// Images count as the budget plans them (its image_tokens, else their bytes); those that do not fit stay out.
				const imageCost = (url: string) => input.budget?.image_tokens ?? Buffer.byteLength(url);
				const images = [];
				let imageRoom = room / 2;
				for (const image of loaded.config.images === 'keep' ? prefixImages(prefix) : []) {
					if (imageCost(image.image_url.url) > imageRoom) continue;
					imageRoom -= imageCost(image.image_url.url);
					images.push(image);
				}

				const text = summaryText(prefix, room - images.reduce((sum, image) => sum + imageCost(image.image_url.url), 0));
				if (text === '') throw new Error(`the summary request cannot fit the budget's limit (${state.success ? state.data.limit : '?'} tokens) even with the old messages cut short`);
				return {...data, prompt, text, ...(images.length > 0 ? {images} : {})};
			},

			async after_compact(data) {
				return {...data, summary: parseHookData('after_compact', afterSchema, data).summary.trim()};
			},
		},
	};
}
