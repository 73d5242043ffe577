import {statSync, type BigIntStats} from 'node:fs';
import * as z from 'zod/mini';
import {errorMessage} from '../../source/core/errors.js';
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
 * The stats this process wrote last, with the identity of the file it left
 * (inode, size, modification time in ns): while the file is still that
 * one, reading it again would give the same stats, so they are reused. Any
 * other writer replaces the file (atomic rename), which changes its
 * identity. Forgotten whenever a write fails.
 */
let lastWritten: {path: string; identity: string; stats: CacheStats} | undefined;

function identityFrom(info: BigIntStats): string {
	return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}`;
}

/** The identity of the file now at `path`; undefined when there is none. Synchronous: one stat, asked before every prediction. */
function identityOf(path: string): string | undefined {
	try {
		return identityFrom(statSync(path, {bigint: true}));
	} catch {
		return undefined;
	}
}

/** The stats to change: taken over from the last write when the file is still that one (a change that fails halfway is never reused). */
async function currentStats(path: string): Promise<CacheStats> {
	const last = lastWritten;
	lastWritten = undefined;
	if (last?.path === path && last.identity === identityOf(path)) return last.stats;
	return (await readStats(path)) ?? emptyStats();
}

async function writeStats(path: string, stats: CacheStats): Promise<void> {
	const written = await writeFileAtomic(path, `${JSON.stringify(stats)}\n`);
	lastWritten = {path, identity: identityFrom(written), stats};
}

/**
 * Reads, changes and writes the stats under `<path>.lock` with an atomic
 * write, so concurrent processes never lose an update; then trims records
 * and streams to their limits.
 */
export async function updateStats<T>(path: string, change: (stats: CacheStats) => T): Promise<T> {
	return withStateFile(path, async () => {
		const stats = await currentStats(path);
		const result = change(stats);
		trim(stats);
		await writeStats(path, stats);
		return result;
	});
}

/** One update of the stats; it must give the same result applied to any copy (no clock, no randomness inside). */
export type StatsChange = (stats: CacheStats) => void;

/**
 * The cache worker's statistics, written off the answer's path. A change
 * is applied at once to a view of the stats (what the next prediction
 * reads) and queued; `flush`, which the worker runs after its answer,
 * writes everything queued by then in one locked read-change-write per
 * file (updateStats' rules: another process's updates are kept), so
 * changes that arrive while a write is on its way share the next one. A
 * failed write keeps its changes queued, ahead of later ones, and throws.
 */
export class StatsWriter {
	/** Per file: the stats with every queued change applied, and the identity of the file they were last read from or written as. */
	readonly #views = new Map<string, {stats: CacheStats; identity: string | undefined}>();
	readonly #queued = new Map<string, StatsChange[]>();
	#writing: Promise<void> | undefined;

	/**
	 * The stats at `path` with every queued change applied. While nothing is
	 * queued or being written, a file another process replaced (or a person
	 * broke) is read again, so its errors surface on this call.
	 */
	async view(path: string): Promise<CacheStats> {
		let view = this.#views.get(path);
		if (view !== undefined && (this.#queued.has(path) || this.#writing !== undefined)) return view.stats;
		const identity = identityOf(path);
		if (view === undefined || view.identity !== identity) {
			view = {stats: (await readStats(path)) ?? emptyStats(), identity};
			this.#views.set(path, view);
		}

		return view.stats;
	}

	/** Applies `change` to the view now and queues it for the file. */
	async change(path: string, change: StatsChange): Promise<void> {
		const view = await this.view(path);
		change(view);
		trim(view);
		this.#queued.set(path, [...(this.#queued.get(path) ?? []), change]);
	}

	/** Writes everything queued; resolves once nothing is left, throws at the first write that fails. */
	async flush(): Promise<void> {
		while (this.#queued.size > 0) {
			this.#writing ??= this.#writeBatch().finally(() => (this.#writing = undefined));
			await this.#writing;
		}
	}

	async #writeBatch(): Promise<void> {
		for (const [path, changes] of [...this.#queued]) {
			this.#queued.delete(path);
			try {
				await updateStats(path, stats => {
					for (const change of changes) change(stats);
				});
			} catch (error) {
				this.#queued.set(path, [...changes, ...(this.#queued.get(path) ?? [])]);
				const message = errorMessage(error);
				// Our own errors name the file already; a system error gets named here.
				throw message.includes(path) && !(error as NodeJS.ErrnoException).code ? error : new Error(`cache stats ${path}: cannot write them (${message}); the changes are kept for the next write`);
			}

			// Nothing of ours is waiting: the view becomes the file as written, with what other processes wrote before.
			if (!this.#queued.has(path) && lastWritten?.path === path) {
				this.#views.set(path, {stats: structuredClone(lastWritten.stats), identity: lastWritten.identity});
			}
		}
	}
}

function trim(stats: CacheStats): void {
	stats.records.splice(0, Math.max(0, stats.records.length - MAX_RECORDS));
	stats.streams.splice(0, Math.max(0, stats.streams.length - MAX_STREAMS));
}
