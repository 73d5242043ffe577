import type {PermissionModeName} from '../core/agent/permission-mode.js';
import type {Usage} from '../core/usage.js';
import type {PickerEntry} from './editor/mention-rank.js';
import type {SlashCommand} from './commands/slash-command.js';
import type {MarkdownRenderer} from './markdown/render-markdown.js';
import type {CostState} from './cost-tally.js';

/** What the chat screen shows, as the store (chat-store.ts) keeps it and the components draw it. */

export type ToolStatus = 'pending' | 'asking' | 'running' | 'done' | 'failed' | 'denied';

/** What an approval question showed (a diff, a command and its folder, arguments): kept with its call, numbered for /diff. */
export interface AskedDetail {
	/** From 1, in the order the questions were asked on this screen. */
	number: number;
	title: string;
	detail: string;
}

export type TranscriptItem =
	| {kind: 'logo'; key: string}
	/** `attachments`: what its @-mentions attached, one line (attach-mentions.ts `describeAttachments`). */
	| {kind: 'user'; key: string; text: string; attachments?: string}
	/** A `!` command the person ran: its last output lines and how it ended; `context` false when it was not added to the context (`!!`, or its save failed). */
	| {kind: 'bash'; key: string; command: string; output: string; status: string; context: boolean}
	/** Answer text: one finished Markdown block (`gap`: a blank row above it, for every block of an answer but its first), or plain lines. */
	| {kind: 'assistant'; key: string; text: string; markdown: boolean; gap: boolean}
	/** `text`: the whole thinking (up to `MAX_KEPT_CHARS`), shown by Ctrl-O only. */
	| {kind: 'thinking'; key: string; lines: number; text: string}
	/** `asked`: what its approval question showed, folded under it once decided; `result`: whole up to `MAX_KEPT_CHARS` (shown-text.ts), folded on the screen, whole in Ctrl-O's transcript; `progress`: a running call's last progress lines. */
	| {kind: 'tool'; key: string; id: string; name: string; summary: string; status: ToolStatus; result: string | null; note: string | null; progress?: string | null; asked?: AskedDetail}
	/** An approval's whole detail, shown again by /diff. */
	| {kind: 'detail'; key: string; asked: AskedDetail}
	| {kind: 'notice'; key: string; level: 'info' | 'warning' | 'error'; text: string}
	/** An extension's message (display: true) or an entry its renderer draws: `label` is its customType (or the extension, for a plain message). */
	| {kind: 'custom'; key: string; label: string; text: string};

export type ToolItem = Extract<TranscriptItem, {kind: 'tool'}>;

/** What a resumed session's history shows (resumed-history.ts reads it from the messages). */
export type HistoryItem =
	/** `attachments`: the line saying what its @-mentions attached (describeAttachments), when they did. */
	| {kind: 'user'; text: string; attachments?: string}
	| {kind: 'assistant'; text: string}
	/** `status`, `result` and `note` as the call's tool_result and approval left them (resumed-history.ts reads them from its tool message). */
	| {kind: 'tool'; id: string; name: string; arguments: string; status: ToolStatus; result: string | null; note: string | null}
	| {kind: 'thinking'; lines: number; text: string}
	/** What the chat said then as a notice (a compaction), not anyone's message. */
	| {kind: 'notice'; level: 'info' | 'warning' | 'error'; text: string}
	/** A `!` command whose output went to the context. */
	| {kind: 'bash'; command: string; output: string; status: string};

/** A running child agent as the live area shows it: its role, turns so far and last activity. */
export interface ChildItem {
	id: string;
	role: string;
	turns: number;
	activity: string;
}

export interface StatusInfo {
	model: string;
	workspace: string;
	session: string | null;
	/** No session is open yet and the one to come is new: shown as such from the first frame. */
	newSession?: boolean;
	usage: Usage | null;
	/** The context window from the API config's budget, when it names one. */
	window: number | null;
	/** The budget's last estimate for a request and its limit (tokens), when a budget plugin gives them. */
	budget?: {estimate: number; limit: number; anchored?: boolean} | null;
	/** Cache-read and all input tokens over this screen's requests: the hit ratio as the cache report counts it (Σ read / Σ input). */
	cacheTotals?: {read: number; input: number};
	/** The last turn's and the session's cost, tokens and prices (/cost); reset when the session changes. */
	cost?: CostState;
	/** The run's permission mode (Shift+Tab cycles it); the default shows nothing. */
	mode?: PermissionModeName;
}

export interface ChatState {
	finished: TranscriptItem[];
	/** The streamed text still open: the open Markdown block's source, or (plain) the line not yet ended by a newline. */
	partial: string;
	/** Draws answer text as Markdown once it is loaded (after the first frame); null: plain text. */
	markdown: MarkdownRenderer | null;
	/** Thinking text of the current step, shown collapsed. */
	thinking: string;
	tools: ToolItem[];
	/** Child agents still running (delegate_task, an extension's childAgent). */
	children: ChildItem[];
	/** The `!` command running, its output's tail as it comes. */
	bash?: {command: string; output: string} | null;
	busy: boolean;
	/** The agent is being set up behind the first frame: the screen shows, nothing can be sent yet. */
	starting: boolean;
	/** The live region (editor, status line, pickers) is not drawn: the chat is ending, or suspended (Ctrl-Z). */
	hidden?: boolean;
	status: StatusInfo;
	/** Counts the transcript's clearings (/clear): the transcript is written afresh under a new key each time. */
	cleared: number;
	/** The extensions' slash commands, after the screen's own in completions and /help. */
	commands: readonly SlashCommand[];
	/** The connected MCP servers' resources, for the @ picker (`@server:uri`); a server still starting adds its own once ready. */
	resources: readonly PickerEntry[];
}
