import {existsSync} from 'node:fs';
import type {AnyFlags} from 'meow';
import {parseCommandLine} from '../command-line/parse-command-line.js';
import {checkedDirs} from '../core/config/checked-dirs.js';
import {errorMessage, exitCodes, UsageError} from '../core/errors.js';
import type {RewindOutcome} from '../core/rewind/apply-rewind.js';
import type {RewindPlan} from '../core/rewind/plan-rewind.js';
import type {RewindPoint} from '../core/rewind/rewind-points.js';
import type {Session} from '../core/session/session-store.js';
import {resolveWorkspace} from '../core/session/start-plugins.js';
import {helpOutput, rewindHelpText} from '../help.js';
import {printableLine, writeErr, writeOut} from '../shared/output.js';

const rewindFlags = {
	cwd: {type: 'string', shortFlag: 'C'},
	session: {type: 'string'},
	sessionName: {type: 'string'},
	keepFiles: {type: 'boolean', default: false},
	overwrite: {type: 'boolean', default: false},
	json: {type: 'boolean', default: false},
} satisfies AnyFlags;

/**
 * `i rewind [N]`: the headless /rewind, on this workspace's latest session
 * (or `--session FILE`, `--session-name NAME`). Without N it lists the
 * session's prompts, numbered as /rewind numbers them; with N it cuts the
 * conversation to just before prompt N and puts back the files `edit` and
 * `write` changed since (not with --keep-files). When a file was changed
 * since by anything else, nothing changes and the file is named, unless
 * --overwrite or --keep-files says what to do with it. Exit 1 then, or when
 * a file could not be restored. Extensions are not loaded, so no
 * SessionBeforeTree gate is asked (the chat screen's /rewind asks it).
 */
export async function runRewind(args: string[]): Promise<number> {
	if (args.includes('--help') || args.includes('-h')) {
		writeOut(helpOutput(rewindHelpText));
		return exitCodes.ok;
	}

	let session: Session | undefined;
	try {
		const {flags, input} = parseCommandLine(args, {flags: rewindFlags, takesInput: true});
		const number = promptNumber(input);
		const workspace = resolveWorkspace(flags.cwd);
		const dirs = checkedDirs();
		session = await openChosen(flags, workspace, dirs);
		const [{rewindPoints}, {planRewind}, {workspaceFileHistory}] = await Promise.all([
			import('../core/rewind/rewind-points.js'),
			import('../core/rewind/plan-rewind.js'),
			import('../core/rewind/workspace-file-history.js'),
		]);
		const points = rewindPoints(session.messages);
		if (number === null) {
			writeOut(
				flags.json
					? `${JSON.stringify({session: session.path, prompts: points.map((point, index) => ({number: index + 1, text: point.text, images: point.images, sentAt: point.sentAt === null ? null : new Date(point.sentAt).toISOString()}))})}\n`
					: listing(session.path, points),
			);
			return exitCodes.ok;
		}

		const point = points[number - 1];
		if (!point) throw new UsageError(`session ${session.path} has ${points.length === 0 ? 'no prompt' : `prompts 1 to ${points.length}`}; there is no prompt ${number} (i rewind lists them)`);
		const history = workspaceFileHistory(workspace, dirs, message => writeErr(`i: rewind: ${message}\n`));
		const plan = await planRewind(session.messages, point, session.id, workspace, history);
		// Headless, a half-done rewind could not be finished later (the prompt is gone with the conversation): nothing changes until the person says what to do with the files changed outside.
		const outside = flags.keepFiles || flags.overwrite ? [] : plan.files.filter(file => file.changedOutside && file.lost === null);
		if (outside.length > 0) {
			writeErr(
				`i: rewind: nothing changed: ${outside.map(file => file.display).join(', ')} changed since prompt ${number}'s changes, not by this session; --overwrite restores ${outside.length === 1 ? 'it' : 'them'} anyway (what ${outside.length === 1 ? 'it holds' : 'they hold'} is kept in file history), --keep-files rewinds the conversation only\n`,
			);
			return exitCodes.turnFailed;
		}

		const {applyRewind} = await import('../core/rewind/apply-rewind.js');
		const outcome = await applyRewind(plan, {conversation: true, files: !flags.keepFiles, overwrite: flags.overwrite}, session, history);
		writeOut(flags.json ? `${JSON.stringify({session: session.path, prompt: number, messages: session.messages.length, ...outcome, notes: plan.notes})}\n` : report(plan, outcome, number, flags.keepFiles));
		return outcome.skipped.length > 0 ? exitCodes.turnFailed : exitCodes.ok;
	} catch (error) {
		writeErr(`i: rewind: ${errorMessage(error)}\n`);
		return error instanceof UsageError ? exitCodes.usage : exitCodes.turnFailed;
	} finally {
		await session?.close();
	}
}

function promptNumber(input: readonly string[]): number | null {
	if (input.length === 0) return null;
	if (input.length > 1) throw new UsageError(`i rewind takes one prompt number, not ${input.length} words`);
	const text = input[0]!;
	if (!/^[1-9]\d{0,8}$/.test(text)) throw new UsageError(`"${printableLine(text)}" is not a prompt number: give a whole number from 1 (i rewind lists them)`);
	return Number(text);
}

/** The session asked for: never a new one, and another i that has it open keeps it (its lock). */
async function openChosen(flags: {session?: string | undefined; sessionName?: string | undefined}, workspace: string, dirs: ReturnType<typeof checkedDirs>): Promise<Session> {
	if (flags.session !== undefined && flags.sessionName !== undefined) throw new UsageError('--session and --session-name each choose the session: give one');
	const [{openStartSession}, {latestSession}, {workspaceSessionsFolder}, {sessionPathForName}] = await Promise.all([
		import('../core/session/start-session.js'),
		import('../core/session/list-sessions.js'),
		import('../core/session/workspace-sessions.js'),
		import('../core/session/session-store.js'),
	]);
	const named = flags.sessionName === undefined ? flags.session : sessionPathForName(workspace, flags.sessionName);
	if (named !== undefined && !existsSync(named)) throw new UsageError(`there is no session ${named} to rewind`);
	// The latest session is found once here, then opened by its path: the start's own -c would list the folder again.
	const latest = named === undefined ? await latestSession(await workspaceSessionsFolder(workspace, dirs)) : undefined;
	if (named === undefined && !latest) throw new UsageError(`there is no saved session in this workspace (${workspace}) to rewind`);
	const choice = latest ? {session: latest.path} : {session: flags.session, sessionName: flags.sessionName};
	return (await openStartSession(choice, workspace, dirs, message => writeErr(`i: rewind: ${message}\n`))).session;
}

function listing(path: string, points: readonly RewindPoint[]): string {
	if (points.length === 0) return `${path}: no prompt yet\n`;
	const lines = points.map((point, index) => {
		const when = point.sentAt === null ? '' : `${new Date(point.sentAt).toISOString().slice(0, 19).replace('T', ' ')}  `;
		const images = point.images > 0 ? ` [${point.images} image${point.images === 1 ? '' : 's'}]` : '';
		return `${String(index + 1).padStart(3)}  ${when}${printableLine(point.text).slice(0, 100)}${images}`;
	});
	return `${path}\n${lines.join('\n')}\n`;
}

function report(plan: RewindPlan, outcome: RewindOutcome, number: number, keepFiles: boolean): string {
	// The plan's files are those edit and write changed since the prompt.
	const lines = [`rewound the conversation to just before prompt ${number} ("${printableLine(plan.point.text).slice(0, 60)}")`];
	for (const note of plan.notes) lines.push(`note: ${note}`);
	if (keepFiles) lines.push(`files left as they are (--keep-files)${plan.files.length > 0 ? `: ${plan.files.map(file => file.display).join(', ')} changed since` : ''}`);
	else if (outcome.restored.length > 0) lines.push(`restored ${outcome.restored.join(', ')}`);
	else if (plan.files.length === 0) lines.push('no file that edit or write changed since needed restoring');
	for (const skipped of outcome.skipped) lines.push(`left ${skipped.display} as it is: ${skipped.why}`);
	return `${lines.join('\n')}\n`;
}
