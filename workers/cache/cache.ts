import {createHash, randomUUID} from 'node:crypto';
import * as z from 'zod/mini';
import '../../source/core/zod-english.js';
import {cacheConfigSchema, statsPath, type CacheConfig} from './config.js';
import {predict, tipOf, WireShaper} from './prediction.js';
import {StatsWriter, type CacheStats} from './stats-file.js';
import {cacheUsage} from './usage.js';
import {moduleConfigLoader} from '../serve/module-config-loader.js';
import {parseHookData as parse} from '../serve/hook-data.js';
import type {Handler, WorkerContext, WorkerDefinition} from '../serve/serve.js';
import {parseWorkerOptions} from '../serve/worker-options.js';

const metaRecord = z.optional(z.nullable(z.record(z.string(), z.unknown())));

const beforeRequestSchema = z.looseObject({
	body: z.record(z.string(), z.unknown()),
	protocol: z.string(),
	model: z.string(),
	request_meta: metaRecord,
});

/** What before_request leaves in `request_meta.cache` for the later hooks of the same request. */
const cacheMetaSchema = z.looseObject({id: z.uuid()});

const retrySchema = z.looseObject({request_meta: metaRecord});

const afterResponseSchema = z.looseObject({
	response: z.looseObject({protocol: z.string(), usage: z.optional(z.unknown())}),
	request_meta: metaRecord,
});

/**
 * How long the count of a prepared request waits for its response before
 * it is written: a response (or a retry) within this writes both in one
 * locked write instead of two, half of what the statistics cost a short
 * turn; a request still waiting then is written on its own, and EOF (the
 * core closing the pool, or dying) writes at once. The statistics on disk
 * lag by at most this; nothing is lost but to a kill.
 */
export const PREPARED_WRITE_DELAY_MS = 1000;

/** The stable 64-character key of a workload: its namespace, workspace and model; also the stream the predictions follow. */
function cacheKey(config: CacheConfig, workspaceId: string, model: string): string {
	return createHash('sha256')
		.update(JSON.stringify([config.namespace ?? null, workspaceId, model]))
		.digest('hex');
}

/** The body with the mode's provider fields added; a field already there is never overwritten. */
function prepareBody(config: CacheConfig, body: Record<string, unknown>, key: string): Record<string, unknown> {
	const added: Record<string, unknown> = {};
	if (config.mode === 'openai') {
		added.prompt_cache_key = key;
		if (config.retention !== undefined) added.prompt_cache_retention = config.retention;
	} else if (config.mode === 'anthropic') {
		added.cache_control = config.ttl === undefined ? {type: 'ephemeral'} : {type: 'ephemeral', ttl: config.ttl};
	}

	return {...added, ...body};
}

/** The stats file of this request's workspace: without a workspace ID there is no state folder to keep it in. */
function statsFile(config: CacheConfig, context: WorkerContext, event: string): string {
	if (context.workspace_id === undefined) {
		throw new Error(`${event}: the request has no workspace_id, so the cache statistics ("stats": ${JSON.stringify(config.stats)}, relative to the workspace state folder) cannot be written`);
	}

	return statsPath(context.paths, context.workspace_id, config.stats);
}

function cacheMeta(meta: Record<string, unknown> | null | undefined, key: CacheMetaKey): {id: string} | undefined {
	const parsed = cacheMetaSchema.safeParse(meta?.[key]);
	return parsed.success ? parsed.data : undefined;
}

function findRecord(stats: CacheStats, id: string) {
	return stats.records.find(record => record.id === id);
}

/** The three hooks of the cache observation. */
export type CacheHooks = Record<'before_request' | 'request_retry' | 'after_response', Handler>;

/** Where a user of `cacheHooks` keeps its record ID between the hooks of one request: `request_meta[key]`. */
export type CacheMetaKey = 'cache' | 'smoke_cache';

/**
 * The cache module's three hooks over a config found per request (spec/platform.md §8):
 * `before_request` adds the mode's cache fields, predicts how the request
 * relates to the previous one of its stream and counts it prepared;
 * `request_retry` counts each physical retry as prepared again;
 * `after_response` records the provider's usage with that provider's
 * accounting. Everything goes to the workspace's stats file under a lock;
 * `enabled: false` does nothing at all. The smoke policy observes with them
 * into a file of its own, under a `request_meta` key of its own.
 */
export function cacheHooks(config: (context: WorkerContext) => Promise<CacheConfig>, metaKey: CacheMetaKey = 'cache'): CacheHooks {
	const shaper = new WireShaper();
	const stats = new StatsWriter();
	return {
		async before_request(data, context) {
			const loaded = await config(context);
			if (!loaded.enabled) return data;
			const request = parse('before_request', beforeRequestSchema, data);
			const path = statsFile(loaded, context, 'before_request');
			const key = cacheKey(loaded, context.workspace_id!, request.model);
			const body = prepareBody(loaded, request.body, key);
			const shape = shaper.shape(body);
			const id = randomUUID();
			const at = new Date().toISOString();
			// Read from the view: the writes of earlier requests may still be on their way.
			const view = await stats.view(path);
			const prediction = predict(
				view.streams.find(stream => stream.key === key),
				shape,
			);
			await stats.change(path, current => {
				const index = current.streams.findIndex(stream => stream.key === key);
				// Most recently used last: the least recently used stream is the one evicted.
				if (index !== -1) current.streams.splice(index, 1);
				current.streams.push({key, ...tipOf(shape)});
				current.totals.requests++;
				current.totals.prepared++;
				current.totals.predictions[prediction]++;
				current.records.push({
					id,
					stream: key,
					at,
					protocol: request.protocol,
					model: request.model,
					prediction,
					elements: shape.chain.length,
					prepared: 1,
					observed: false,
					usage: null,
					unknown_usage: false,
				});
			});
			context.afterAnswer(async () => stats.flush(), {delayMs: PREPARED_WRITE_DELAY_MS});
			return {...data, body, request_meta: {...request.request_meta, [metaKey]: {id, stream: key, prediction}}};
		},

		async request_retry(data, context) {
			const loaded = await config(context);
			if (!loaded.enabled) return data;
			const meta = cacheMeta(parse('request_retry', retrySchema, data).request_meta, metaKey);
			// Not prepared by this module (it was off then): nothing of ours to count.
			if (!meta) return data;
			await stats.change(statsFile(loaded, context, 'request_retry'), current => {
				current.totals.prepared++;
				const record = findRecord(current, meta.id);
				if (record) record.prepared++;
			});
			context.afterAnswer(async () => stats.flush());
			return data;
		},

		async after_response(data, context) {
			const loaded = await config(context);
			if (!loaded.enabled) return data;
			const answer = parse('after_response', afterResponseSchema, data);
			const meta = cacheMeta(answer.request_meta, metaKey);
			if (!meta) return data;
			const usage = cacheUsage(answer.response.protocol, answer.response.usage);
			await stats.change(statsFile(loaded, context, 'after_response'), current => {
				current.totals.observed++;
				if (usage) {
					current.totals.input_tokens += usage.input;
					current.totals.cache_read_tokens += usage.cache_read;
					current.totals.cache_write_tokens += usage.cache_write;
				} else {
					current.totals.unknown_usage++;
				}

				const record = findRecord(current, meta.id);
				if (record) {
					record.observed = true;
					record.usage = usage;
					record.unknown_usage = usage === null;
				}
			});
			context.afterAnswer(async () => stats.flush());
			return data;
		},
	};
}

/** `i --runtime worker cache [--config FILE]` (spec/platform.md §8): `cacheHooks` over `cache.json` (or `--config FILE`). */
export function createWorker(args: string[]): WorkerDefinition {
	const options = parseWorkerOptions('cache', args);
	const config = moduleConfigLoader('cache', cacheConfigSchema, options.config);
	return {name: 'cache', hooks: cacheHooks(async context => (await config(context)).config)};
}
