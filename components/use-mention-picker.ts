import {useEffect, useMemo, useRef, useState} from 'react';
import {mentionAtCaret} from '../source/core/mentions/parse-mentions.js';
import {mentionText} from '../source/core/mentions/parse-mentions.js';
import type {WorkspaceEntries} from '../source/core/mentions/workspace-entries.js';
import {rankEntries, type PickerEntry} from '../source/tui/editor/mention-rank.js';
import type {ListKey} from './InputEditor.js';

export interface MentionPicker {
	/** Open: the word at the caret is an `@` mention being typed (and Esc did not close it). */
	open: boolean;
	/** The best matches, PICKER_ROWS at most; empty while the walk runs. */
	matches: PickerEntry[];
	selected: number;
	/** The walk is still running. */
	loading: boolean;
	/** Why the list is not the whole workspace (a walk limit), or why it could not be read. */
	note: string | null;
	/** For InputEditor's onListKey. */
	onKey(key: ListKey, text: string, caret: number): {from: number; to: number; text: string} | boolean;
}

const noResources: readonly PickerEntry[] = [];

type Walk = {state: 'running'} | {state: 'done'; result: WorkspaceEntries} | {state: 'failed'; message: string};

/**
 * The editor's @ picker: follows the word at the caret; when it is an
 * `@` mention, lists the connected MCP servers' `resources` (as they come)
 * and walks the workspace once (lazily, off the key path: the walk
 * module loads on first use and yields as it goes) and keeps the list while
 * the picker stays open; it is dropped when the picker closes. ↑/↓ move,
 * Tab or Enter choose (a folder completes and keeps the picker open, a file
 * ends the mention with a space), Esc closes it and leaves the text.
 */
export function useMentionPicker(workspace: string, text: string, caret: number, resources: readonly PickerEntry[] = noResources): MentionPicker {
	const mention = workspace === '' ? null : mentionAtCaret(text, caret);
	const [dismissed, setDismissed] = useState<number | null>(null);
	const open = mention !== null && dismissed !== mention.start;
	const [walk, setWalk] = useState<Walk | null>(null);
	// The row chosen for a query: typing more starts again at the first row.
	const [selection, setSelection] = useState({query: '', index: 0});
	const controller = useRef<AbortController | null>(null);

	// A mention elsewhere (or none) forgets the Esc.
	useEffect(() => {
		if (dismissed !== null && mention?.start !== dismissed) setDismissed(null);
	}, [mention?.start, dismissed]);

	useEffect(() => {
		if (!open) {
			controller.current?.abort();
			controller.current = null;
			setWalk(null);
			return;
		}

		if (controller.current) return;
		const current = new AbortController();
		controller.current = current;
		setWalk({state: 'running'});
		void import('../source/core/mentions/workspace-entries.js')
			.then(async ({workspaceEntries}) => workspaceEntries(workspace, current.signal))
			.then(
				result => !current.signal.aborted && setWalk({state: 'done', result}),
				(error: unknown) => !current.signal.aborted && setWalk({state: 'failed', message: `cannot list the workspace: ${(error as Error).message}`}),
			);
	}, [open, workspace]);

	useEffect(() => () => controller.current?.abort(), []);

	const query = mention?.query ?? '';
	const files = walk?.state === 'done' ? walk.result.entries : null;
	// The servers' resources are there at once (the store has them), while the walk runs too: the picker never waits on a server.
	const entries = useMemo(() => (resources.length === 0 ? files : [...(files ?? []), ...resources]), [files, resources]);
	const matches = useMemo(() => (open && entries ? rankEntries(entries, query) : []), [open, entries, query]);
	const chosen = selection.query === query ? Math.min(selection.index, Math.max(0, matches.length - 1)) : 0;

	const onKey = (key: ListKey, current: string, at: number): {from: number; to: number; text: string} | boolean => {
		const typed = mentionAtCaret(current, at);
		if (!open || typed === null) return false;
		switch (key) {
			case 'escape': {
				setDismissed(typed.start);
				return true;
			}

			case 'up':
			case 'down': {
				if (matches.length === 0) return true;
				setSelection({query, index: (chosen + (key === 'up' ? matches.length - 1 : 1)) % matches.length});
				return true;
			}

			case 'tab':
			case 'submit': {
				const entry = matches[chosen];
				// Nothing to choose: Enter sends as typed; Tab does nothing.
				if (!entry) return key === 'tab';
				// The whole mention is replaced, also what stands after the caret up to the next space.
				let end = at;
				while (end < current.length && !/\s/.test(current[end]!)) end++;
				if (entry.directory) {
					const quoted = /\s/.test(entry.path) || typed.quoted;
					return {from: typed.start, to: end, text: quoted ? `@"${entry.path}/` : `@${entry.path}/`};
				}

				const after = current[end] === undefined || !/\s/.test(current[end]!) ? ' ' : '';
				// A resource is `@server:uri` as typed (resource-mentions.ts reads it so; a URI has no blanks to quote).
				return {from: typed.start, to: end, text: (entry.resource === undefined ? mentionText(entry.path) : `@${entry.path}`) + after};
			}
		}
	};

	const note = walk?.state === 'failed' ? walk.message : walk?.state === 'done' ? walk.result.limit : null;
	return {open, matches, selected: chosen, loading: walk?.state === 'running', note, onKey};
}
