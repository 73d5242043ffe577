import * as z from 'zod/mini';
import '../source/core/zod-english.js';
import {contextUpdate, restoreForCommit} from './context-snapshot.js';
import {readMemory, memoryPath} from './memory/store.js';
import {MEMORY_SOURCE, entriesOf, memoryDelete, memoryRead, memoryWrite} from './memory/tools.js';
import {moduleConfigLoader} from './module-config-loader.js';
import {messagesOf} from './hook-data.js';
import {serve, type WorkerContext} from './serve.js';
import {parseWorkerOptions} from './worker-options.js';

/** `memory.json` (seed §4, §9). */
const memoryConfigSchema = z.strictObject({
	/** Show the entries to the model as context snapshots while the module is enabled. */
	inject: z._default(z.boolean(), true),
});



function pathFor(what: string, context: WorkerContext): string {
	if (context.workspace_id === undefined) throw new Error(`${what}: the request has no workspace_id, so there is no workspace memory (data/workspaces/<id>/memory.json) to use`);
	return memoryPath(context.paths, context.workspace_id);
}

/**
 * `i --runtime worker memory [--config FILE]`: workspace memory (seed §9).
 * Tools memory_read, memory_write and memory_delete keep entries in
 * `data/workspaces/<id>/memory.json` under a lock with atomic writes; being
 * external tools, every call needs approval (the core asks, unless --yolo).
 * With `inject` (the default), before_turn appends the entries as a context
 * snapshot (full, then deltas, nothing while unchanged) and
 * before_compact_commit restores the full one a compaction removed; with
 * `inject: false` both pass their data through. No vector search.
 */
export async function runWorker(args: string[]): Promise<number> {
	const options = parseWorkerOptions('memory', args);
	const config = moduleConfigLoader('memory', memoryConfigSchema, options.config);
	return serve({
		name: 'memory',
		tools: {
			memory_read: async (data, context) => memoryRead(data, pathFor('memory_read', context)),
			memory_write: async (data, context) => memoryWrite(data, pathFor('memory_write', context)),
			memory_delete: async (data, context) => memoryDelete(data, pathFor('memory_delete', context)),
		},
		hooks: {
			async before_turn(data, context) {
				if (!(await config(context)).config.inject) return data;
				const messages = messagesOf('before_turn', data);
				const entries = entriesOf(await readMemory(pathFor('before_turn', context)));
				// The given messages go back as they came (the core compares them); the update only appends.
				return {...data, messages: [...(data.messages as unknown[]), ...contextUpdate(messages, MEMORY_SOURCE, entries)]};
			},
			async before_compact_commit(data, context) {
				if (!(await config(context)).config.inject) return data;
				const messages = messagesOf('before_compact_commit', data);
				const entries = entriesOf(await readMemory(pathFor('before_compact_commit', context)));
				return {...data, messages: restoreForCommit(messages, MEMORY_SOURCE, entries)};
			},
		},
	});
}
