import type {CoreEvent} from '../core/events.js';
import type {Usage} from '../core/usage.js';
import {summariseArguments} from '../shared/summarise-arguments.js';
import {printable} from '../shared/output.js';
import type {PickerEntry} from './editor/mention-rank.js';
import type {SlashCommand} from './slash-commands.js';
import {customRendering, type CustomRendering} from './custom-rendering.js';
import type {MarkdownRenderer} from './markdown/render-markdown.js';
import {addUsage, emptyCost, type CostState} from './cost-tally.js';

/**
 * The chat screen's state, built from core events. Finished items go to
 * `finished`, which only ever grows: the screen writes each once to the
 * scrollback (Ink `Static`) and never redraws it. Everything still moving
 * (the line being streamed, thinking, running tools) is `live`, the only part
 * that re-renders. With Markdown, streamed text moves to `finished` block by
 * block (a paragraph once a blank line ends it, a fence once it closes…),
 * each written once, and the open block is drawn in the live area; without
 * (before the renderer loaded, or I_MARKDOWN=0), line by line as it came.
 */

export type ToolStatus = 'pending' | 'asking' | 'running' | 'done' | 'failed' | 'denied';

export type TranscriptItem =
	| {kind: 'logo'; key: string}
	/** `attachments`: what its @-mentions attached, one line (attach-mentions.ts `describeAttachments`). */
	| {kind: 'user'; key: string; text: string; attachments?: string}
	/** A `!` command the person ran: its last output lines and how it ended; `context` false when it was not added to the context (`!!`, or its save failed). */
	| {kind: 'bash'; key: string; command: string; output: string; status: string; context: boolean}
	/** Answer text: one finished Markdown block (`gap`: a blank row above it, for every block of an answer but its first), or plain lines. */
	| {kind: 'assistant'; key: string; text: string; markdown: boolean; gap: boolean}
	| {kind: 'thinking'; key: string; lines: number}
	| {kind: 'tool'; key: string; id: string; name: string; summary: string; status: ToolStatus; result: string | null; note: string | null; progress?: string | null}
	| {kind: 'notice'; key: string; level: 'info' | 'warning' | 'error'; text: string}
	/** An extension's message (display: true) or an entry its renderer draws: `label` is its customType (or the extension, for a plain message). */
	| {kind: 'custom'; key: string; label: string; text: string};

export type ToolItem = Extract<TranscriptItem, {kind: 'tool'}>;

/** What a resumed session's history shows (resumed-history.ts reads it from the messages). */
export type HistoryItem =
	/** `attachments`: the line saying what its @-mentions attached (describeAttachments), when they did. */
	| {kind: 'user'; text: string; attachments?: string}
	| {kind: 'assistant'; text: string}
	| {kind: 'tool'; id: string; name: string; arguments: string}
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
	usage: Usage | null;
	/** The context window from the API config's budget, when it names one. */
	window: number | null;
	/** The budget's last estimate for a request and its limit (tokens), when a budget plugin gives them. */
	budget?: {estimate: number; limit: number} | null;
	/** Cache-read and all input tokens over this screen's requests: the hit ratio as the cache report counts it (Σ read / Σ input). */
	cacheTotals?: {read: number; input: number};
	/** The last turn's and the session's cost, tokens and prices (/cost); reset when the session changes. */
	cost?: CostState;
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
	status: StatusInfo;
	/** The extensions' slash commands, after the screen's own in completions and /help. */
	commands: readonly SlashCommand[];
	/** The connected MCP servers' resources, for the @ picker (`@server:uri`); a server still starting adds its own once ready. */
	resources: readonly PickerEntry[];
}

/** The running `!` command's output the live area keeps (its tail). */
const LIVE_BASH_CHARS = 4096;

export class ChatStore {
	#state: ChatState;
	readonly #listeners = new Set<() => void>();
	#counter = 0;
	/** Whether a turn's requests are being tallied (between its first usage and its done). */
	#turnOpen = false;
	#scheduled: NodeJS.Timeout | undefined;
	readonly #frameMs: number;
	/** Completed lines of streamed text not yet moved to `finished` (plain text): one item per frame, not per line. */
	#lines: string[] = [];
	/** Finished Markdown blocks of this answer so far: the next one gets a blank row above it. */
	#answerBlocks = 0;
	/** Streamed Markdown not yet split into blocks: split once a frame, not on every delta. */
	#unsplit = false;
	/** The open Markdown goes on the last finished block (a long paragraph cut between lines): no blank row above it. */
	#continues = false;
	/** The extensions' Markdown transformers, run on each block of answer text as it is finished. */
	#transform: (text: string) => string = text => text;
	/** The extensions' message and entry renderers; before they load, messages with display show the default way and entries not at all. */
	#rendering: CustomRendering = customRendering({messageRenderers: new Map(), entryRenderers: new Map()}, () => {});
	/** Deliveries shown so far: a resumed session's are shown from its history once, whatever also comes as an event. */
	readonly #shownDeliveries = new Set<string>();

	constructor(status: StatusInfo, options: {logo: boolean; frameMs?: number; starting?: boolean}) {
		this.#frameMs = options.frameMs ?? 33;
		this.#state = {
			finished: options.logo ? [{kind: 'logo', key: 'logo'}] : [],
			partial: '',
			markdown: null,
			thinking: '',
			tools: [],
			children: [],
			busy: false,
			starting: options.starting ?? false,
			status,
			commands: [],
			resources: [],
		};
	}

	getSnapshot = (): ChatState => this.#state;

	subscribe = (listener: () => void): (() => void) => {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	};

	/** A person's message, shown at once, with what its @-mentions attached. */
	addUser(text: string, attachments: string | null = null): void {
		this.#finish([{kind: 'user', key: this.#key(), text: shown(text), ...(attachments === null ? {} : {attachments: shown(attachments)})}], true);
		this.#update({busy: true}, true);
	}

	/** A `!` command starts: the screen is busy (Esc stops it) and shows its output live. */
	startBash(command: string): void {
		this.#update({busy: true, bash: {command: shown(command), output: ''}}, true);
	}

	/** More of the running `!` command's output; the live view keeps its tail only. */
	bashOutput(text: string): void {
		const bash = this.#state.bash;
		if (!bash) return;
		const output = (bash.output + text).slice(-LIVE_BASH_CHARS);
		this.#update({bash: {...bash, output}}, false);
	}

	/** The `!` command ended: written to the transcript once, with its last lines. */
	endBash(item: {command: string; output: string; status: string; context: boolean}): void {
		this.#update({bash: null}, false);
		this.#finish([{kind: 'bash', key: this.#key(), command: shown(item.command), output: shown(item.output), status: shown(item.status), context: item.context}], true);
	}

	notice(level: 'info' | 'warning' | 'error', text: string): void {
		this.#finish([{kind: 'notice', key: this.#key(), level, text: shown(text)}], true);
	}

	setBusy(busy: boolean): void {
		this.#update({busy}, true);
	}

	/** The agent is set up: messages can be sent. */
	started(status: Partial<StatusInfo>): void {
		this.#update({starting: false, status: {...this.#state.status, ...status}}, true);
	}

	/** The extensions' commands and Markdown transform, once they loaded. */
	extend(extension: {commands: readonly SlashCommand[]; transform?: (text: string) => string; rendering?: CustomRendering}): void {
		if (extension.transform) this.#transform = extension.transform;
		if (extension.rendering) this.#rendering = extension.rendering;
		this.#update({commands: extension.commands}, true);
	}

	/** The MCP servers' resources as the @ picker lists them, after each change of the servers. */
	setResources(resources: readonly PickerEntry[]): void {
		this.#update({resources}, true);
	}

	/** Answer text from now on is drawn as Markdown (the renderer is the lazy chunk, loaded after the first frame). */
	setMarkdown(markdown: MarkdownRenderer): void {
		this.#endText();
		this.#update({markdown}, true);
	}

	/** The model the status line names, after a switch (/provider, /model). */
	setModel(model: string): void {
		this.#update({status: {...this.#state.status, model}}, true);
	}

	setSession(session: string): void {
		// Another session: its cost starts again, as the core's session_cost does.
		this.#update({status: {...this.#state.status, session, cost: emptyCost()}}, true);
		this.#turnOpen = false;
	}

	/** An extension's committed message or entry, shown once by its renderer (or the default way); hidden ones and entries without a renderer show nothing. */
	delivered(event: Extract<CoreEvent, {type: 'custom_message' | 'entry'}>): void {
		if (this.#shownDeliveries.has(event.id)) return;
		this.#shownDeliveries.add(event.id);
		const view = event.type === 'entry' ? this.#rendering.entry(event) : this.#rendering.message(event);
		if (!view) return;
		this.#endText();
		this.#finish([{kind: 'custom', key: this.#key(), label: shown(view.label), text: shown(view.text)}], true);
	}

	/**
	 * A resumed session's conversation (--continue, /resume, --session),
	 * written to the transcript once as it would have been shown: the
	 * person's messages, the answers (as Markdown when it is on), each tool
	 * call as one finished line. Deliveries go through `delivered`.
	 */
	showHistory(items: readonly HistoryItem[]): void {
		this.#endText();
		const markdown = this.#state.markdown !== null;
		const shownItems = items.map((item): TranscriptItem => {
			if (item.kind === 'user') return {kind: 'user', key: this.#key(), text: shown(item.text), ...(item.attachments === undefined ? {} : {attachments: shown(item.attachments)})};
			if (item.kind === 'bash') return {kind: 'bash', key: this.#key(), command: shown(item.command), output: shown(item.output), status: shown(item.status), context: true};
			if (item.kind === 'assistant') return {kind: 'assistant', key: this.#key(), text: shown(markdown ? this.#transform(item.text) : item.text), markdown, gap: false};
			return {kind: 'tool', key: this.#key(), id: item.id, name: shown(item.name), summary: shown(summariseArguments(item.arguments)), status: 'done', result: null, note: null};
		});
		if (shownItems.length > 0) this.#finish(shownItems, true);
	}

	/** Marks a tool as waiting for the person's answer. */
	asking(id: string): void {
		this.#updateTool(id, {status: 'asking'}, true);
	}

	/** Folds a core event into the state. Streaming updates are batched to one notification a frame. */
	apply(event: CoreEvent): void {
		switch (event.type) {
			case 'session': {
				this.#update({status: {...this.#state.status, session: event.id}}, true);
				if (event.resumed_messages > 0) this.notice('info', `resumed ${event.resumed_messages} messages from ${event.path}`);
				if (event.dropped) {
					this.notice('warning', `session repaired: dropped ${event.dropped.lines} line(s) (${event.dropped.reason}), kept in ${event.dropped.savedTo}`);
				}

				break;
			}

			case 'text_delta': {
				this.#endThinking();
				this.#stream(shown(event.text));
				break;
			}

			case 'thinking_delta': {
				this.#update({thinking: this.#state.thinking + event.text}, false);
				break;
			}

			case 'tool_call': {
				this.#endText();
				this.#endThinking();
				const item: ToolItem = {kind: 'tool', key: this.#key(), id: event.id, name: shown(event.name), summary: shown(summariseArguments(event.arguments)), status: 'pending', result: null, note: null};
				this.#update({tools: [...this.#state.tools, item]}, true);
				break;
			}

			case 'approval': {
				this.#updateTool(
					event.id,
					event.decision === 'deny' ? {status: 'denied', note: event.reason === null ? null : shown(event.reason)} : {note: event.by === 'yolo' || event.by === 'policy' ? `allowed by ${event.by}` : null},
					true,
				);
				break;
			}

			case 'tool_started': {
				this.#updateTool(event.id, {status: 'running'}, true);
				break;
			}

			case 'tool_update': {
				this.#updateTool(event.id, {progress: shown(lastLine(event.text))}, false);
				break;
			}

			case 'tool_result': {
				const tool = this.#state.tools.find(item => item.id === event.id);
				if (!tool) break;
				const status: ToolStatus = tool.status === 'denied' ? 'denied' : event.is_error ? 'failed' : 'done';
				const done: ToolItem = {...tool, status, result: shown(event.output), progress: null};
				this.#update({tools: this.#state.tools.filter(item => item.id !== event.id)}, false);
				this.#finish([done], true);
				break;
			}

			case 'budget': {
				this.#update({status: {...this.#state.status, budget: {estimate: event.estimate, limit: event.limit}}}, false);
				break;
			}

			case 'usage': {
				const totals = this.#state.status.cacheTotals ?? {read: 0, input: 0};
				const cacheTotals = {read: totals.read + event.usage.cacheRead, input: totals.input + event.usage.input};
				const cost = addUsage(this.#state.status.cost ?? emptyCost(), event, !this.#turnOpen);
				this.#turnOpen = true;
				this.#update({status: {...this.#state.status, usage: event.usage, cacheTotals, cost}}, false);
				break;
			}

			case 'retry': {
				this.notice('warning', `${event.reason}; retry ${event.attempt} in ${(event.delay_ms / 1000).toFixed(1)} s`);
				break;
			}

			case 'warning': {
				this.notice('warning', event.message);
				break;
			}

			case 'child': {
				const item: ChildItem = {id: event.id, role: shown(event.role), turns: event.turns, activity: shown(lastLine(event.activity))};
				const others = this.#state.children.filter(child => child.id !== event.id);
				if (event.status === 'running') {
					const known = others.length < this.#state.children.length;
					this.#update({children: known ? this.#state.children.map(child => (child.id === event.id ? item : child)) : [...others, item]}, false);
					break;
				}

				this.#update({children: others}, false);
				const turns = `${event.turns} turn${event.turns === 1 ? '' : 's'}`;
				if (event.status === 'done') this.notice('info', `child ${item.role} (${event.id}) ${item.activity} after ${turns}`);
				else this.notice('warning', `child ${item.role} (${event.id}) failed after ${turns}: ${item.activity}`);
				break;
			}

			case 'compaction': {
				this.notice('info', `compacted the history: ${event.before_bytes} → ${event.after_bytes} bytes`);
				break;
			}

			case 'error': {
				this.#endText();
				this.notice('error', event.message);
				break;
			}

			case 'custom_message':
			case 'entry': {
				// While the agent is set up the renderers are not known yet: the screen shows the session's deliveries from its history once it started.
				if (!this.#state.starting) this.delivered(event);
				break;
			}

			case 'done': {
				// The next request's usage begins another turn's tally (/cost's "last turn").
				this.#turnOpen = false;
				this.#endText();
				this.#endThinking();
				if (event.reason === 'interrupted') this.notice('info', 'interrupted; the session keeps its last complete step');
				if (event.reason === 'length') this.notice('warning', 'the answer was cut off at max_tokens');
				this.#update({busy: false}, true);
				break;
			}
		}
	}

	/** Appends streamed text: completed lines (plain) or finished blocks (Markdown) move to the scrollback at the next frame. */
	#stream(text: string): void {
		const all = this.#state.partial + text;
		if (this.#state.markdown) {
			this.#unsplit = true;
			this.#update({partial: all}, false);
			return;
		}

		const end = all.lastIndexOf('\n');
		if (end !== -1) this.#lines.push(all.slice(0, end));
		this.#update({partial: end === -1 ? all : all.slice(end + 1)}, false);
	}

	/** The answer's text is over (a tool call, an error, the end of the turn): whatever is open is finished as it stands. */
	#endText(): void {
		const {partial, markdown} = this.#state;
		this.#state = {...this.#state, partial: ''};
		this.#unsplit = false;
		if (markdown) {
			if (partial.trim() !== '') {
				const {finished, open, continues} = markdown.split(partial);
				this.#addBlocks(finished, continues);
				this.#addBlocks([open], false);
			}

			this.#answerBlocks = 0;
			this.#continues = false;
			return;
		}

		if (partial !== '') this.#lines.push(partial);
		this.#flushLines();
	}

	/** The open Markdown's finished blocks move to `finished`; what is left stays in the live area. */
	#splitOpen(): void {
		const {partial, markdown} = this.#state;
		if (!this.#unsplit || !markdown) return;
		this.#unsplit = false;
		const {finished, open, continues} = markdown.split(partial);
		if (finished.length === 0) return;
		this.#state = {...this.#state, partial: open};
		this.#addBlocks(finished, continues);
	}

	/** Each block through the extensions' transformers, then one item each, written once. */
	#addBlocks(blocks: readonly string[], continues: boolean): void {
		const items: TranscriptItem[] = [];
		for (const source of blocks) {
			const block = source.replace(/\n+$/, '');
			if (block.trim() === '') continue;
			items.push({kind: 'assistant', key: this.#key(), text: this.#transform(block), markdown: true, gap: this.#answerBlocks > 0 && !this.#continues});
			this.#answerBlocks++;
			this.#continues = false;
		}

		// Set after the blocks: it is the open text, finished later, that goes on the last of them.
		if (items.length > 0) this.#continues = continues;

		if (items.length > 0) this.#state = {...this.#state, finished: [...this.#state.finished, ...items]};
	}

	#flushLines(): void {
		if (this.#lines.length === 0) return;
		const text = this.#transform(this.#lines.join('\n'));
		this.#lines = [];
		this.#state = {...this.#state, finished: [...this.#state.finished, {kind: 'assistant', key: this.#key(), text, markdown: false, gap: false}]};
	}

	#endThinking(): void {
		const {thinking} = this.#state;
		if (thinking === '') return;
		this.#state = {...this.#state, thinking: ''};
		this.#finish([{kind: 'thinking', key: this.#key(), lines: thinking.split('\n').length}], true);
	}

	#finish(items: TranscriptItem[], now: boolean): void {
		// Text streamed before these items comes before them (an open Markdown block goes on below them).
		this.#flushLines();
		this.#splitOpen();
		this.#update({finished: [...this.#state.finished, ...items]}, now);
	}

	#updateTool(id: string, change: Partial<ToolItem>, now: boolean): void {
		this.#update({tools: this.#state.tools.map(item => (item.id === id ? {...item, ...change} : item))}, now);
	}

	#key(): string {
		this.#counter++;
		return `item-${this.#counter}`;
	}

	/** State changes at once; listeners hear of streaming changes at most once a frame. */
	#update(change: Partial<ChatState>, now: boolean): void {
		this.#state = {...this.#state, ...change};
		if (now) {
			clearTimeout(this.#scheduled);
			this.#scheduled = undefined;
			this.#notify();
			return;
		}

		this.#scheduled ??= setTimeout(() => {
			this.#scheduled = undefined;
			this.#notify();
		}, this.#frameMs);
	}

	#notify(): void {
		this.#flushLines();
		this.#splitOpen();
		for (const listener of this.#listeners) listener();
	}
}

/**
 * Text from the model, a tool or a server, made safe for the terminal: Ink
 * strips cursor movement but keeps colours and OSC sequences (a clipboard
 * write, a window title), so every control character is shown as U+FFFD.
 */
function shown(text: string): string {
	return printable(text.replaceAll('\r\n', '\n'));
}

/** A progress text's last non-empty line: the one status line a running tool shows. */
function lastLine(text: string): string {
	return (
		text
			.split(/\r?\n/)
			.filter(line => line.trim().length > 0)
			.at(-1) ?? ''
	);
}
