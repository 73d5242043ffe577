import {mkdir, readFile, unlink} from 'node:fs/promises';
import {dirname} from 'node:path';
import {errorMessage} from '../errors.js';
import type {Session} from '../session/session-store.js';
import {replaceFile} from '../tools/replace-file.js';
import type {FileHistory} from './file-history.js';
import {digestOf, type FileRestore, type RewindPlan} from './plan-rewind.js';

/** What the person chose: the conversation, the files, or both; `overwrite` lets files changed outside be restored too. */
export interface RewindChoice {
	conversation: boolean;
	files: boolean;
	overwrite: boolean;
}

export interface RewindOutcome {
	/** The history was cut to just before the prompt. */
	conversation: boolean;
	restored: string[];
	/** Files left as they are, each with why. */
	skipped: Array<{display: string; why: string}>;
}

/**
 * Carries out a plan (plan-rewind.ts): the files first, each checked
 * again just before it is written (a file that changed since the plan is
 * left alone), then the conversation. Restoring a file is itself a change
 * in file history, so what it replaced can be had back, and a later rewind
 * finds the file as this one left it.
 */
export async function applyRewind(plan: RewindPlan, choice: RewindChoice, session: Session, history: FileHistory | null): Promise<RewindOutcome> {
	const outcome: RewindOutcome = {conversation: false, restored: [], skipped: []};
	if (choice.files && history) {
		for (const file of plan.files) {
			const why = await restoreFile(file, choice.overwrite, session.id, history);
			if (why === null) outcome.restored.push(file.display);
			else outcome.skipped.push({display: file.display, why});
		}
	}

	if (choice.conversation) {
		if (session.messages[plan.point.index] === undefined || session.messages.length < plan.messages.length || plan.messages.some((message, index) => session.messages[index] !== message)) {
			throw new Error('the conversation changed since the rewind was planned; choose the prompt again');
		}

		await session.replaceHistory([...plan.messages]);
		outcome.conversation = true;
	}

	return outcome;
}

/** Puts one file back; null when done, else why not. */
async function restoreFile(file: FileRestore, overwrite: boolean, session: string, history: FileHistory): Promise<string | null> {
	if (file.lost !== null) return file.lost;
	if (file.changedOutside && !overwrite) return 'it changed since (not by this session), and overwriting it was not confirmed';
	try {
		if ((await digestOf(file.path)) !== file.current) return 'it changed while the rewind was being chosen';
		const bytes = file.blob === null ? null : await history.blob(file.blob);
		if (file.blob !== null && bytes === null) return 'its before-image is gone from file history';
		const before = file.current === null ? null : await readFile(file.path);
		const kept = await history.keep({session, path: file.path, before, after: bytes, by: 'rewind'});
		try {
			if (bytes === null) {
				await unlink(file.path);
			} else {
				await mkdir(dirname(file.path), {recursive: true});
				await replaceFile(file.path, bytes, history.writes);
			}
		} catch (error) {
			await kept.failed();
			throw error;
		}

		return null;
	} catch (error) {
		return `it could not be restored: ${errorMessage(error)}`;
	}
}
