import {dirname, resolve} from 'node:path';
import type {PlatformDirs} from '../config/dirs.js';
import {openSession, sessionPathForName, type Session} from './session-store.js';
import {latestSession} from './list-sessions.js';
import {openNewNamedSession, openWorkspaceSession, provisionalSessionPath, pruneProvisional, workspaceSessionsFolder} from './workspace-sessions.js';
import {slugOf} from './session-name.js';

/** Which session a start opens: `--session FILE`, `--session-name NAME`, `--continue`, or a new one. */
export interface SessionChoice {
	session?: string | undefined;
	sessionName?: string | undefined;
	/** `-c`: this workspace's latest session, a new one when it has none. */
	continueLatest?: boolean | undefined;
	/** The first message, when the start knows it (`-p TEXT`): a new session is named after it at once, so the `session` event names its final path. */
	firstMessage?: string | undefined;
	/**
	 * The chat screen: a new session without a first message opens under a
	 * provisional name and is named after its first message once it is
	 * saved. Other heads (line mode, the core API) report the session's path
	 * at start (`session` event), so theirs is named by the time at once.
	 */
	nameLater?: boolean | undefined;
}

export interface StartSession {
	session: Session;
	/** The workspace's sessions folder: where new sessions go (/clear, /fork) and /resume looks, whichever session this start opened. */
	folder: string;
	/** Said to the person: `-c` found nothing to continue. */
	notice: string | null;
}

/**
 * Opens the session a start asked for. `--session FILE` opens any file (the
 * old `<data_dir>/sessions/` layout too; one inside this workspace's folder is
 * kept in its index like the rest); `--session-name` the project's
 * `.i/sessions/NAME.json`, a namespace of its own (spec/platform.md §3); otherwise
 * the workspace folder: its latest session with `-c`, else a new one.
 */
export async function openStartSession(choice: SessionChoice, workspace: string, dirs: PlatformDirs, warn: (message: string) => void): Promise<StartSession> {
	const folder = await workspaceSessionsFolder(workspace, dirs);
	if (choice.sessionName !== undefined) return {session: await openSession({path: sessionPathForName(workspace, choice.sessionName), workspace}), folder, notice: null};
	if (choice.session !== undefined) {
		const path = resolve(choice.session);
		const inFolder = dirname(path) === folder;
		const session = inFolder ? await openWorkspaceSession({path, workspace, warn}) : await openSession({path, workspace});
		return {session, folder, notice: null};
	}
	let notice: string | null = null;
	if (choice.continueLatest === true) {
		const latest = await latestSession(folder);
		if (latest) return {session: await openWorkspaceSession({path: latest.path, workspace, warn}), folder, notice: null};
		notice = `no saved session in this workspace (${workspace}) to continue: a new one starts`;
	}
	const first = choice.firstMessage?.trim() ?? '';
	const session =
		first !== ''
			? await openNewNamedSession(folder, slugOf(first), workspace, warn)
			: choice.nameLater === true
				? await openProvisional(folder, workspace, warn)
				: await openNewNamedSession(folder, stampName(new Date()), workspace, warn, {discardIfEmpty: true});
	return {session, folder, notice};
}

/** `session-20250101-103000`: the name of a new session of a head that cannot wait for its first message. */
export function stampName(date: Date): string {
	const iso = date.toISOString();
	return `session-${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}`;
}

/** A new chat session under a provisional name, once what killed runs left of theirs is gone. */
async function openProvisional(folder: string, workspace: string, warn: (message: string) => void): Promise<Session> {
	await pruneProvisional(folder);
	return openWorkspaceSession({path: provisionalSessionPath(folder), workspace, warn});
}
