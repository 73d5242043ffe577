import type {Message, UserMessage} from '../messages.js';
import type {UserBashRun} from './run-user-bash.js';

/** The output lines the transcript keeps of a `!` command (the context gets all of it, within its limit). */
export const SHOWN_BASH_LINES = 20;

/** What the session keeps beside a `!` command's message, for the transcript of a resumed session. */
export interface UserBashRecord {
	command: string;
	status: string;
	/** The output's last `SHOWN_BASH_LINES` lines. */
	shown: string;
}

export type UserBashMessage = UserMessage & {_user_bash: UserBashRecord};

/**
 * A `!` command as the next request carries it: a user message (not a turn:
 * nothing is asked of the model until the person sends a prompt, which
 * follows it). The output sits between fences longer than any run of
 * backticks in it, so it cannot close them.
 */
export function userBashMessage(run: UserBashRun): UserBashMessage {
	const longest = Math.max(2, ...[...run.output.matchAll(/`+/g)].map(match => match[0].length));
	const fence = '`'.repeat(longest + 1);
	const body = run.output === '' ? '(no output)' : `${fence}\n${run.output}\n${fence}`;
	const text = `I ran a shell command in the workspace myself (not a request to you; its output is context for my next message):\n$ ${run.command}\n${body}\n${run.status}`;
	return {role: 'user', content: text, _user_bash: {command: run.command, status: run.status, shown: lastLines(run.output, SHOWN_BASH_LINES)}};
}

/**
 * Adds a `!` command to the session at once (the person runs them only
 * while no turn runs): the next request carries it before the next prompt.
 * A new session's first step begins with its system prompt, as a turn's does.
 */
export async function recordUserBash(session: {messages: readonly Message[]; appendStep(step: Message[]): Promise<void>}, systemPrompt: string, message: UserBashMessage): Promise<void> {
	await session.appendStep(session.messages.length === 0 ? [{role: 'system', content: systemPrompt}, message] : [message]);
}

/** A message's `!` command record, when it is one (checked: a session file is outside input). */
export function userBashOf(message: Message): UserBashRecord | null {
	if (message.role !== 'user') return null;
	const record = (message as Partial<UserBashMessage>)._user_bash;
	if (record === null || typeof record !== 'object') return null;
	const {command, status, shown} = record;
	return typeof command === 'string' && typeof status === 'string' && typeof shown === 'string' ? {command, status, shown} : null;
}

export function lastLines(text: string, count: number): string {
	const lines = text.replace(/\n$/, '').split('\n');
	return lines.length <= count ? lines.join('\n') : [`… ${lines.length - count} lines above`, ...lines.slice(-count)].join('\n');
}
