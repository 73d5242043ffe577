import * as z from 'zod/mini';
import '../../source/core/zod-english.js';
import {writeFileAtomic} from '../../source/core/fs/atomic-write.js';
import {readStateFile, withStateFile} from '../../source/core/fs/state-file.js';
import {predictions} from './prediction.js';

/** Seed §8: the most recent request records kept… */
export const MAX_RECORDS = 200;
/** …and the most recently used streams; the cumulative totals are kept forever. */
export const MAX_STREAMS = 256;
/** 200 records and 256 streams take well under 200 KB; anything far bigger is not ours. */
export const MAX_STATS_BYTES = 4 * 1024 * 1024;

const tokens = z.int().check(z.gte(0));
const digest = z.string().check(z.regex(/^[0-9a-f]{64}$/));
const predictionCounts = z.strictObject(Object.fromEntries(predictions.map(name => [name, tokens])) as Record<(typeof predictions)[number], typeof tokens>);

const totalsSchema = z.strictObject({
	/** Logical requests prepared by before_request. */
	requests: tokens,
	/** Requests prepared, each physical retry (request_retry) counted again. */
	prepared: tokens,
	/** Responses seen by after_response. */
	observed: tokens,
	/** Observed responses whose usage was missing or not recognisable. */
	unknown_usage: tokens,
	input_tokens: tokens,
	cache_read_tokens: tokens,
	cache_write_tokens: tokens,
	predictions: predictionCounts,
});

const recordSchema = z.strictObject({
	id: z.uuid(),
	stream: digest,
	at: z.string(),
	protocol: z.string(),
	model: z.string(),
	prediction: z.enum(predictions),
	/** Wire elements (tools, system, messages): a size, not content. */
	elements: tokens,
	prepared: tokens,
	observed: z.boolean(),
	/** Null until observed, and when the usage was unknown. */
	usage: z.nullable(z.strictObject({input: tokens, cache_read: tokens, cache_write: tokens})),
	unknown_usage: z.boolean(),
});

const streamSchema = z.strictObject({key: digest, length: tokens, prefix: digest});

const statsSchema = z.strictObject({
	version: z.literal(1),
	totals: totalsSchema,
	/** Least recently used first. */
	streams: z.array(streamSchema),
	/** Oldest first. */
	records: z.array(recordSchema),
});

export type CacheStats = z.infer<typeof statsSchema>;
export type CacheRecord = z.infer<typeof recordSchema>;
export type CacheTotals = z.infer<typeof totalsSchema>;

export function emptyStats(): CacheStats {
	return {
		version: 1,
		totals: {requests: 0, prepared: 0, observed: 0, unknown_usage: 0, input_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, predictions: {new: 0, append: 0, compact: 0, reset: 0}},
		streams: [],
		records: [],
	};
}

/**
 * The stats at `path`, or undefined when there is no file yet. A file that
 * is too big, not JSON or not in this shape is an error naming it: it is
 * never reset behind the person's back, since the totals live only there.
 */
export async function readStats(path: string): Promise<CacheStats | undefined> {
	const read = await readStateFile(path, statsSchema, {
		label: 'cache stats',
		maxBytes: MAX_STATS_BYTES,
		tooBig: 'move it away to start new statistics',
		corrupt: 'it is never reset automatically: repair it, or move it away to start new statistics',
	});
	return read?.data;
}

/**
 * Reads, changes and writes the stats under `<path>.lock` with an atomic
 * write, so concurrent processes never lose an update; then trims records
 * and streams to their limits.
 */
export async function updateStats<T>(path: string, change: (stats: CacheStats) => T): Promise<T> {
	return withStateFile(path, async () => {
		const stats = (await readStats(path)) ?? emptyStats();
		const result = change(stats);
		stats.records.splice(0, Math.max(0, stats.records.length - MAX_RECORDS));
		stats.streams.splice(0, Math.max(0, stats.streams.length - MAX_STREAMS));
		await writeFileAtomic(path, `${JSON.stringify(stats)}\n`);
		return result;
	});
}
