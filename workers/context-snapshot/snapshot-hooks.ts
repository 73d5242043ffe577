import {contextUpdate, restoreForCommit, type Entries} from './context-snapshot.js';
import {messagesOf} from '../serve/hook-data.js';
import type {Handler, WorkerContext} from '../serve/serve.js';

/**
 * The two hooks of a worker that shows the model `source`'s entries as
 * context snapshots (spec/platform.md §7): before_turn appends what changed since the
 * history's latest snapshot, before_compact_commit restores the full one a
 * compaction summarised away. `entries` gives the current entries, or null
 * to pass the data through untouched (the source is switched off).
 */
export function snapshotHooks(source: string, entries: (event: string, context: WorkerContext) => Promise<Entries | null>): {before_turn: Handler; before_compact_commit: Handler} {
	return {
		async before_turn(data, context) {
			const current = await entries('before_turn', context);
			if (current === null) return data;
			const messages = messagesOf('before_turn', data);
			// The given messages go back as they came (the core compares them); the update only appends.
			return {...data, messages: [...(data.messages as unknown[]), ...contextUpdate(messages, source, current)]};
		},
		async before_compact_commit(data, context) {
			const current = await entries('before_compact_commit', context);
			if (current === null) return data;
			return {...data, messages: restoreForCommit(messagesOf('before_compact_commit', data), source, current)};
		},
	};
}
