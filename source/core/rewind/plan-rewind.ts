import {readFile} from 'node:fs/promises';
import {relative, sep} from 'node:path';
import type {Message} from '../messages.js';
import {MAX_REWIND_BYTES, sha256, type FileHistory} from './file-history.js';
import type {ChangeRecord} from './rewind-journal.js';
import type {RewindPoint} from './rewind-points.js';

/** What a rewind would do to one file that `edit` or `write` changed since the prompt. */
export interface FileRestore {
	/** The canonical path. */
	path: string;
	/** Relative to the workspace when inside it. */
	display: string;
	/** Put the before-image back, or remove a file that did not exist before. */
	action: 'restore' | 'remove';
	/** The before-image's digest (restore). */
	blob: string | null;
	/** The file's digest now (null: absent), as the plan found it: the rewind checks it again before writing. */
	current: string | null;
	/** Something other than this session's edits changed the file since its last one: it is overwritten only when the person confirms. */
	changedOutside: boolean;
	/** Why it cannot be restored: its before-image was too large to keep, or was dropped to keep the store within its bound. */
	lost: string | null;
}

export interface RewindPlan {
	point: RewindPoint;
	/** The history as it will be: the messages before the prompt. */
	messages: readonly Message[];
	/** Files to put back; those already as they were are left out. */
	files: FileRestore[];
	/** What the person should know: changes whose before-images are gone, a prompt from before file history. */
	notes: string[];
}

/**
 * What rewinding `messages` to just before `point` would do: the history
 * cut there, and for each file this session's `edit` and `write` changed
 * since the prompt was sent, the image before the first of those changes,
 * and whether the file still holds what the last of them wrote.
 */
export async function planRewind(messages: readonly Message[], point: RewindPoint, session: string, workspace: string, history: FileHistory | null): Promise<RewindPlan> {
	const plan: RewindPlan = {point, messages: messages.slice(0, point.index), files: [], notes: []};
	if (!history) return plan;
	if (point.sentAt === null) {
		plan.notes.push('this prompt was saved before i kept file history: only the conversation can be rewound');
		return plan;
	}

	const journal = await history.read();
	const since = journal.changes.filter(change => change.session === session && change.time >= point.sentAt!);
	const dropped = journal.dropped.find(note => note.session === session && note.through >= point.sentAt!);
	const droppedPaths = new Set(dropped?.paths ?? []);
	if (dropped) {
		const which = dropped.more ? 'some files' : dropped.paths.map(path => display(path, workspace)).join(', ');
		plan.notes.push(
			`${dropped.count} earlier change${dropped.count === 1 ? ' was' : 's were'} dropped to keep file history within ${MAX_REWIND_BYTES / 1024 / 1024} MB (${which}): ${dropped.more ? 'files may not come back as they were' : 'those files are not restored'}`,
		);
	}

	if (journal.unreadable > 0)
		plan.notes.push(`${journal.unreadable} line${journal.unreadable === 1 ? '' : 's'} of the rewind journal could not be read and ${journal.unreadable === 1 ? 'was' : 'were'} left out`);
	for (const [path, changes] of byPath(since)) {
		const first = changes[0]!;
		const last = changes.at(-1)!;
		const current = await digestOf(path);
		const target = first.before === 'not-kept' ? undefined : first.before;
		if (target !== undefined && current === target) continue;
		const lost =
			droppedPaths.has(path) || dropped?.more === true
				? 'an earlier change to it was dropped from file history'
				: target === undefined
					? 'it was too large to keep before it was changed'
					: target !== null && !(await history.has(target))
						? 'its before-image is gone from file history'
						: null;
		plan.files.push({path, display: display(path, workspace), action: target === null ? 'remove' : 'restore', blob: target ?? null, current, changedOutside: current !== last.after, lost});
	}

	return plan;
}

/** The changes grouped by file, each in the order they were made. */
function byPath(changes: readonly ChangeRecord[]): Map<string, ChangeRecord[]> {
	const files = new Map<string, ChangeRecord[]>();
	for (const change of changes) files.set(change.path, [...(files.get(change.path) ?? []), change]);
	return files;
}

/** The file's sha256 now; null when there is none. */
export async function digestOf(path: string): Promise<string | null> {
	try {
		return sha256(await readFile(path));
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === 'ENOENT') return null;
		// A folder where the file was, or one that cannot be read: never "as it was".
		if (code === 'EISDIR') return 'a folder';
		throw error;
	}
}

function display(path: string, workspace: string): string {
	const inside = relative(workspace, path);
	return inside !== '' && !inside.startsWith(`..${sep}`) && inside !== '..' ? inside : path;
}
