import type {CoreEvent} from '../core/events.js';
import {AnswerStream} from './answer-stream.js';
import type {AskedDetail, ChatState, HistoryItem, StatusInfo, ToolItem, TranscriptItem} from './chat-state.js';
import type {PickerEntry} from './editor/mention-rank.js';
import type {SlashCommand} from './commands/slash-command.js';
import {customRendering, type CustomRendering} from './custom-rendering.js';
import {historyTranscript} from './history-items.js';
import type {MarkdownRenderer} from './markdown/render-markdown.js';
import {addUsage, emptyCost} from './cost-tally.js';
import {kept, shown, shownExact} from './shown-text.js';
import {decidedTool, finishedTool, progressOf, requestedTool} from './tool-items.js';
import {childChange} from './child-items.js';

/** The running `!` command's output the live area keeps (its tail). */
const LIVE_BASH_CHARS = 4096;

/**
 * The chat screen's state, built from core events. Finished items go to
 * `finished`, which only ever grows: the screen writes each once to the
 * scrollback (Ink `Static`) and never redraws it. Everything still moving
 * (the text being streamed, thinking, running tools) is live, the only part
 * that re-renders; streamed text reaches `finished` through the answer
 * stream (answer-stream.ts), by Markdown block or by line.
 */
export class ChatStore {
	#state: ChatState;
	readonly #listeners = new Set<() => void>();
	#counter = 0;
	/** Approval questions numbered so far (/diff N). */
	#asked = 0;
	/** Whether a turn's requests are being tallied (between its first usage and its done). */
	#turnOpen = false;
	#scheduled: NodeJS.Timeout | undefined;
	readonly #frameMs: number;
	/** The answer's text on its way to the scrollback. */
	readonly #answer = new AnswerStream({
		get: () => this.#state,
		set: change => {
			this.#state = {...this.#state, ...change};
		},
		key: () => this.#key(),
	});
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
			cleared: 0,
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
		this.#finish([{kind: 'bash', key: this.#key(), command: shown(item.command), output: kept(shown(item.output)), status: shown(item.status), context: item.context}], true);
	}

	notice(level: 'info' | 'warning' | 'error', text: string): void {
		this.#finish([{kind: 'notice', key: this.#key(), level, text: shown(text)}], true);
	}

	setBusy(busy: boolean): void {
		this.#update({busy}, true);
	}

	/** The live region goes (the chat ends, or Ctrl-Z suspends it) or comes back; drawn at once. */
	hideLive(hidden: boolean): void {
		this.#update({hidden}, true);
	}

	/** The agent is set up: messages can be sent. */
	started(status: Partial<StatusInfo>): void {
		this.#update({starting: false, status: {...this.#state.status, ...status}}, true);
	}

	/** The extensions' commands and Markdown transform, once they loaded. */
	extend(extension: {commands: readonly SlashCommand[]; transform?: (text: string) => string; rendering?: CustomRendering}): void {
		if (extension.transform) this.#answer.setTransform(extension.transform);
		if (extension.rendering) this.#rendering = extension.rendering;
		this.#update({commands: extension.commands}, true);
	}

	/** The MCP servers' resources as the @ picker lists them, after each change of the servers. */
	setResources(resources: readonly PickerEntry[]): void {
		this.#update({resources}, true);
	}

	/** Answer text from now on is drawn as Markdown (the renderer is the lazy chunk, loaded after the first frame). */
	setMarkdown(markdown: MarkdownRenderer): void {
		this.#answer.end();
		this.#update({markdown}, true);
	}

	/** What the status line names that changes in a run: the model after a switch (/provider, /model), the permission mode (Shift+Tab, an accepted plan). */
	setStatus(part: Pick<Partial<StatusInfo>, 'model' | 'mode'>): void {
		this.#update({status: {...this.#state.status, ...part}}, true);
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
		this.#answer.end();
		this.#finish([{kind: 'custom', key: this.#key(), label: shown(view.label), text: shown(view.text)}], true);
	}

	/**
	 * A resumed session's conversation (--continue, /resume, --session),
	 * written to the transcript once as it was shown live (history-items.ts);
	 * deliveries go through `delivered`.
	 */
	showHistory(items: readonly HistoryItem[]): void {
		this.#answer.end();
		const shownItems = historyTranscript(items, {key: () => this.#key(), answer: text => this.#answer.transform(text), markdown: this.#state.markdown !== null});
		if (shownItems.length > 0) this.#finish(shownItems, true);
	}

	/** /clear: nothing of the old session stays, the transcript (written afresh) nor the status line's tokens, cache, budget and cost. */
	clearTranscript(): void {
		this.#answer.end();
		this.#turnOpen = false;
		const status = {...this.#state.status, usage: null, cacheTotals: undefined, budget: null, cost: emptyCost()};
		this.#update({finished: [], partial: '', thinking: '', tools: [], cleared: this.#state.cleared + 1, status}, true);
	}

	/** Marks a tool as waiting for the person's answer; what the question shows stays with the call, numbered, once it is decided. */
	asking(id: string, ask?: {title: string; detail: string}): void {
		const known = this.#state.tools.some(item => item.id === id);
		const asked: AskedDetail | undefined = ask && known ? {number: ++this.#asked, title: shownExact(ask.title), detail: kept(shownExact(ask.detail))} : undefined;
		this.#updateTool(id, asked ? {status: 'asking', asked} : {status: 'asking'}, true);
	}

	/** /diff: the whole detail of approval `number` (the last one by default) written to the transcript again; otherwise why not. */
	showAsked(number: number | null): string | null {
		if (this.#asked === 0) return 'no approval was asked on this screen yet';
		const wanted = number ?? this.#asked;
		const asked = [...this.#state.finished, ...this.#state.tools].find((item): item is ToolItem => item.kind === 'tool' && item.asked?.number === wanted)?.asked;
		if (!asked) return `there is no approval ${wanted}: those on this screen are numbered 1 to ${this.#asked}`;
		this.#finish([{kind: 'detail', key: this.#key(), asked}], true);
		return null;
	}

	/** Folds a core event into the state. Streaming updates are batched to one notification a frame. */
	apply(event: CoreEvent): void {
		switch (event.type) {
			case 'session':
			case 'budget':
			case 'usage': {
				this.#statusEvent(event);
				break;
			}

			case 'tool_call':
			case 'approval':
			case 'tool_started':
			case 'tool_update':
			case 'tool_result': {
				this.#toolEvent(event);
				break;
			}

			case 'child': {
				this.#child(event);
				break;
			}

			case 'text_delta': {
				this.#endThinking();
				this.#update({partial: this.#answer.append(shown(event.text))}, false);
				break;
			}

			case 'thinking_delta': {
				this.#update({thinking: this.#state.thinking + event.text}, false);
				break;
			}

			case 'message_end': {
				if (event.replaced_by !== null) this.#replaceAnswer(event.text, event.replaced_by);
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

			case 'compaction': {
				this.notice('info', `compacted the history: ${event.before_bytes} → ${event.after_bytes} bytes`);
				break;
			}

			case 'error': {
				this.#answer.end();
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
				this.#answer.end();
				this.#endThinking();
				if (event.reason === 'interrupted') this.notice('info', 'interrupted; the session keeps its last complete step');
				if (event.reason === 'length') this.notice('warning', 'the answer was cut off at max_tokens');
				this.#update({busy: false}, true);
				break;
			}
		}
	}

	/** The status line's events: the session, the budget's estimate, a request's usage and cost. */
	#statusEvent(event: Extract<CoreEvent, {type: 'session' | 'budget' | 'usage'}>): void {
		switch (event.type) {
			case 'session': {
				this.#update({status: {...this.#state.status, session: event.id}}, true);
				if (event.resumed_messages > 0) this.notice('info', `resumed ${event.resumed_messages} messages from ${event.path}`);
				if (event.dropped) {
					this.notice('warning', `session repaired: dropped ${event.dropped.lines} line(s) (${event.dropped.reason}), kept in ${event.dropped.savedTo}`);
				}

				break;
			}

			case 'budget': {
				this.#update({status: {...this.#state.status, budget: {estimate: event.estimate, limit: event.limit, anchored: event.anchored}}}, false);
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
		}
	}

	/** A tool call from its request to its result: live while it runs, then finished. */
	#toolEvent(event: Extract<CoreEvent, {type: 'tool_call' | 'approval' | 'tool_started' | 'tool_update' | 'tool_result'}>): void {
		switch (event.type) {
			case 'tool_call': {
				this.#answer.end();
				this.#endThinking();
				this.#update({tools: [...this.#state.tools, requestedTool(event, this.#key())]}, true);
				break;
			}

			case 'approval': {
				this.#updateTool(event.id, decidedTool(event), true);
				break;
			}

			case 'tool_started': {
				this.#updateTool(event.id, {status: 'running'}, true);
				break;
			}

			case 'tool_update': {
				this.#updateTool(event.id, progressOf(event), false);
				break;
			}

			case 'tool_result': {
				const tool = this.#state.tools.find(item => item.id === event.id);
				if (!tool) break;
				this.#update({tools: this.#state.tools.filter(item => item.id !== event.id)}, false);
				this.#finish([finishedTool(tool, event)], true);
				break;
			}
		}
	}

	/** A child agent: live while it runs, a notice when it ended. */
	#child(event: Extract<CoreEvent, {type: 'child'}>): void {
		const {children, notice} = childChange(this.#state.children, event);
		this.#update({children}, false);
		if (notice) this.notice(notice.level, notice.text);
	}

	/** An extension's `MessageEnd` replaced the answer: the screen shows the text the session keeps, below a note when part of the original was written already. */
	#replaceAnswer(text: string, extension: string): void {
		// Replaced before anything else is finished: finishing an item first would write the open original to the scrollback.
		if (!this.#answer.replace(shown(text))) {
			this.notice('info', `extension ${extension} replaced the answer above; the session keeps this text:`);
			this.#state = {...this.#state, partial: this.#answer.append(shown(text))};
		}

		this.#endThinking();
		this.#update({}, true);
	}

	#endThinking(): void {
		const {thinking} = this.#state;
		if (thinking === '') return;
		this.#state = {...this.#state, thinking: ''};
		this.#finish([{kind: 'thinking', key: this.#key(), lines: thinking.split('\n').length, text: kept(thinking)}], true);
	}

	#finish(items: TranscriptItem[], now: boolean): void {
		// Text streamed before these items comes before them (an open Markdown block goes on below them).
		this.#answer.flushLines();
		this.#answer.splitOpen();
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
		this.#answer.flushLines();
		this.#answer.splitOpen();
		for (const listener of this.#listeners) listener();
	}
}
