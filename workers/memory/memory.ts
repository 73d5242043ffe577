import * as z from 'zod/mini';
import '../../source/core/zod-english.js';
import {readMemory, memoryPath} from './store.js';
import {MEMORY_SOURCE, entriesOf, memoryDelete, memoryRead, memoryWrite} from './tools.js';
import {moduleConfigLoader} from '../serve/module-config-loader.js';
import type {WorkerContext, WorkerDefinition} from '../serve/serve.js';
import {snapshotHooks} from '../context-snapshot/snapshot-hooks.js';
import {parseWorkerOptions} from '../serve/worker-options.js';

/** `memory.json` (spec/platform.md §4, §9). */
const memoryConfigSchema = z.strictObject({
	/** Show the entries to the model as context snapshots while the module is enabled. */
	inject: z._default(z.boolean(), true),
});

function pathFor(what: string, context: WorkerContext): string {
	if (context.workspace_id === undefined) throw new Error(`${what}: the request has no workspace_id, so there is no workspace memory (data/workspaces/<id>/memory.json) to use`);
	return memoryPath(context.paths, context.workspace_id);
}

/**
 * `i --runtime worker memory [--config FILE]`: workspace memory (spec/platform.md §9).
 * Tools memory_read, memory_write and memory_delete keep entries in
 * `data/workspaces/<id>/memory.json` under a lock with atomic writes; being
 * external tools, every call needs approval (the core asks, unless --yolo).
 * With `inject` (the default), before_turn appends the entries as a context
 * snapshot (full, then deltas, nothing while unchanged) and
 * before_compact_commit restores the full one a compaction removed; with
 * `inject: false` both pass their data through. No vector search.
 */
export function createWorker(args: string[]): WorkerDefinition {
	const options = parseWorkerOptions('memory', args);
	const config = moduleConfigLoader('memory', memoryConfigSchema, options.config);
	return {
		name: 'memory',
		tools: {
			memory_read: async (data, context) => memoryRead(data, pathFor('memory_read', context)),
			memory_write: async (data, context) => memoryWrite(data, pathFor('memory_write', context)),
			memory_delete: async (data, context) => memoryDelete(data, pathFor('memory_delete', context)),
		},
		// With `inject: false` both hooks pass their data through.
		hooks: snapshotHooks(MEMORY_SOURCE, async (event, context) => ((await config(context)).config.inject ? entriesOf(await readMemory(pathFor(event, context))) : null)),
	};
}
