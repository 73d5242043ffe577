import type {Usage} from './usage.js';
import type {Cost, ModelPrices} from './usage-cost.js';
import type {UserContent} from './messages.js';

/**
 * The one stream of typed events the core emits. Every head (line mode,
 * print mode, `--json`, the TUI) renders these; nothing in the core writes
 * to the terminal. Failures travel as `error` events too.
 */
export type CoreEvent =
	| {
			type: 'session';
			id: string;
			path: string;
			workspace: string;
			/** Messages already in the session when it was opened. */
			resumed_messages: number;
			/** What a repair cut from a torn file or one whose history a provider would refuse, when it did, and the side file that keeps those bytes. */
			dropped: {bytes: number; lines: number; reason: string; savedTo: string} | null;
	  }
	| {type: 'text_delta'; text: string}
	| {type: 'thinking_delta'; text: string}
	/**
	 * The answer's text as the extensions' `MessageEnd` handlers left it, which
	 * is saved; `replaced_by` the extension whose answer replaced it last (null
	 * when none did). Only when an extension handles `MessageEnd`.
	 */
	| {type: 'message_end'; text: string; replaced_by: string | null}
	| {type: 'tool_call'; id: string; name: string; arguments: string}
	| {
			type: 'approval';
			id: string;
			name: string;
			title: string;
			/** Who provides the tool: `native`, `official module memory`, `extension todo (FILE)`, `MCP server docs (FILE)`, `plugin worker of FILE`. */
			owner: string;
			decision: 'allow' | 'deny';
			/** Who decided: a permission rule, the policy hook, --yolo, the person, or nobody could be asked. */
			by: 'rule' | 'policy' | 'mode' | 'yolo' | 'user' | 'no_terminal';
			reason: string | null;
	  }
	/** The call was approved (or needed no approval) and now runs. */
	| {type: 'tool_started'; id: string; name: string}
	/** Partial progress of a running call (an extension tool's `ctx.onUpdate`): the latest text replaces the one before. */
	| {type: 'tool_update'; id: string; name: string; text: string}
	| {type: 'tool_result'; id: string; name: string; output: string; is_error: boolean; images: number}
	/**
	 * One request's tokens; `cost` what they cost at `prices` (the selected
	 * catalogue model's, null when the catalogue has no such model), and
	 * `session_cost` the session's total so far (usage-cost.ts: `unknown`
	 * once some tokens had no price; `dollars` then counts the priced ones).
	 */
	| {type: 'usage'; model: string; usage: Usage; cost: Cost; session_cost: Cost; prices: ModelPrices | null}
	/**
	 * The budget's estimate for the request about to be sent, against its
	 * limit (tokens); `window` when the config names one; `anchored` when the
	 * estimate rests on the provider's count of the last request, not on bytes.
	 */
	| {type: 'budget'; estimate: number; limit: number; window: number | null; anchored: boolean}
	| {type: 'retry'; attempt: number; delay_ms: number; reason: string; status: number | null}
	| {type: 'warning'; message: string}
	/** The history was compacted: messages before `cut` (after the system prompt) became a summary. */
	| {type: 'compaction'; cut: number; before_bytes: number; after_bytes: number}
	/** An extension's message (sendMessage, appendEntry {message}) joined the history; `display` says whether heads show it. */
	| {
			type: 'custom_message';
			id: string;
			extension: string;
			/** Null for a plain `{text}` or user message. */
			customType: string | null;
			content: UserContent;
			display: boolean;
			details: unknown;
	  }
	/** An extension's `{customType, data}` entry was committed to the session; it is never part of the model's context. */
	| {type: 'entry'; id: string; extension: string; customType: string; data: unknown}
	| {type: 'error'; message: string; kind: string}
	/**
	 * A child agent's progress (child-agents.ts): it started, made a model
	 * request (`turns`), began another activity (`writing`, `running read`),
	 * or ended (`done`, `failed`). Its own text and tool calls stay in its
	 * own session, never in the parent's transcript.
	 */
	| {type: 'child'; id: string; role: string; status: 'running' | 'done' | 'failed'; turns: number; activity: string}
	| {
			type: 'done';
			reason: 'stop' | 'length' | 'content_filter' | 'max_steps' | 'error' | 'interrupted';
			steps: number;
	  };

export type EmitEvent = (event: CoreEvent) => void;
