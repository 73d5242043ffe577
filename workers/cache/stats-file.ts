import {readFileSync, statSync, type BigIntStats} from 'node:fs';
import * as z from 'zod/mini';
import {errorMessage} from '../../source/core/errors.js';
import '../../source/core/zod-english.js';
import {writeFileAtomic} from '../../source/core/fs/atomic-write.js';
import {readStateFile, withStateFile} from '../../source/core/fs/state-file.js';
import {noteWritten, writtenDigestPath} from '../../source/core/fs/written-digest.js';
import {predictions} from './prediction.js';

/** spec/platform.md §8: the most recent request records kept… */
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
	const read = await readStateFile(
		path,
		statsSchema,
		{
			label: 'cache stats',
			maxBytes: MAX_STATS_BYTES,
			tooBig: 'move it away to start new statistics',
			corrupt: 'it is never reset automatically: repair it, or move it away to start new statistics',
		},
		// Written only by `rewrite`, which notes each text: see written-digest.ts.
		{digest: true},
	);
	return read?.data;
}

/** One update of the stats; it must give the same result applied to any copy (no clock, no randomness inside). */
export type StatsChange = (stats: CacheStats) => void;

function identityFrom(info: BigIntStats): string {
	return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}`;
}

/** The identity of the file now at `path` (device, inode, size, modification time); undefined when there is none. Synchronous: one stat, asked before a prediction. */
function identityOf(path: string): string | undefined {
	try {
		return identityFrom(statSync(path, {bigint: true}));
	} catch {
		return undefined;
	}
}

/**
 * What says the file at `path` is still the one this process last read or
 * wrote: its identity and the digest beside it, which every writer of the
 * stats replaces under the lock. The identity alone could repeat (another
 * writer's file of the same size, in the same clock tick, on an inode freed
 * since); with the digest, only a file of the very same text could pass,
 * and then nothing was lost. Undefined when there is no file.
 */
function witnessOf(path: string): string | undefined {
	return witnessFrom(path, identityOf(path));
}

function witnessFrom(path: string, identity: string | undefined): string | undefined {
	if (identity === undefined) return undefined;
	let digest = '';
	try {
		digest = readFileSync(writtenDigestPath(path), 'utf8');
	} catch {
		// No digest: the identity must match a file that had none either.
	}

	return `${identity}|${digest}`;
}

/** A write whose result is known already: the file `witness` names, with the batch's changes applied, as `text`. */
interface KnownResult {
	witness: string;
	stats: CacheStats;
	text: string;
}

/**
 * Reads, changes and writes the stats under `<path>.lock` with an atomic
 * write, so concurrent processes never lose an update; records and streams
 * are trimmed to their limits. When the file is still the one `known` was
 * made from, its text is written as it is: reading, checking and parsing
 * the file again (up to 64 KB at 200 records: 0.4–1 ms of the host's CPU
 * per write) would give the same. Resolves with the stats written, the
 * identity of the file they went to (taken before the rename, so another
 * writer's file never passes for this one) and its witness.
 */
async function rewrite(path: string, change: StatsChange, known?: KnownResult): Promise<{stats: CacheStats; identity: string; witness: string | undefined}> {
	return withStateFile(path, async () => {
		let stats: CacheStats;
		let text: string;
		if (known !== undefined && witnessOf(path) === known.witness) {
			({stats, text} = known);
		} else {
			stats = (await readStats(path)) ?? emptyStats();
			change(stats);
			trim(stats);
			text = `${JSON.stringify(stats)}\n`;
		}

		const identity = identityFrom(await writeFileAtomic(path, text));
		await noteWritten(path, text);
		return {stats, identity, witness: witnessFrom(path, identity)};
	});
}

/** One locked read-change-write of the stats (see `rewrite`). */
export async function updateStats(path: string, change: StatsChange): Promise<void> {
	await rewrite(path, change);
}

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
	/**
	 * Per file: the stats with every queued change applied, and the identity
	 * and witness (witnessOf) of the file they were last read from or written as.
	 */
	readonly #views = new Map<string, {stats: CacheStats; identity: string | undefined; witness: string | undefined}>();
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
			// Taken before the read: a file replaced in between has another witness by the time it counts.
			const witness = witnessOf(path);
			view = {stats: (await readStats(path)) ?? emptyStats(), identity, witness};
			this.#views.set(path, view);
		}

		return view.stats;
	}

	/** Applies `change` to the view now (the one a prediction just read, if any) and queues it for the file. */
	async change(path: string, change: StatsChange): Promise<void> {
		const view = this.#views.get(path)?.stats ?? (await this.view(path));
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
		for (const path of [...this.#queued.keys()]) {
			// Taken now, not when the batch began: changes queued while an earlier file was written go with this write.
			const changes = this.#queued.get(path)!;
			this.#queued.delete(path);
			// Nothing else is queued for the file: its view is the file it names with exactly these changes applied.
			const view = this.#views.get(path);
			const known = view?.witness === undefined ? undefined : {witness: view.witness, stats: view.stats, text: `${JSON.stringify(view.stats)}\n`};
			let written: {stats: CacheStats; identity: string; witness: string | undefined};
			try {
				written = await rewrite(
					path,
					stats => {
						for (const change of changes) change(stats);
					},
					known,
				);
			} catch (error) {
				this.#queued.set(path, [...changes, ...(this.#queued.get(path) ?? [])]);
				// Our own errors name the file already; a system error (it has a code) gets named here.
				if (!(error as NodeJS.ErrnoException).code) throw error;
				throw new Error(`cache stats ${path}: cannot write them (${errorMessage(error)}); the changes are kept for the next write`);
			}

			// Nothing of ours is waiting: the view becomes the file as written, with what other processes wrote before.
			if (!this.#queued.has(path)) this.#views.set(path, written);
		}
	}
}

function trim(stats: CacheStats): void {
	stats.records.splice(0, Math.max(0, stats.records.length - MAX_RECORDS));
	stats.streams.splice(0, Math.max(0, stats.streams.length - MAX_STREAMS));
}
