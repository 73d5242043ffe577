import {useState, useSyncExternalStore} from 'react';
import {Box, Static} from 'ink';
import type {ChatStore} from '../source/tui/chat-store.js';
import type {ApprovalBroker} from '../source/tui/brokers/approval-broker.js';
import type {TrustBroker} from '../source/tui/brokers/trust-broker.js';
import type {DialogBroker} from '../source/tui/brokers/dialog-broker.js';
import type {ChooserBroker} from '../source/tui/brokers/chooser-broker.js';
import {ChoiceList} from './ChoiceList.js';
import {KeyField} from './KeyField.js';
import type {KeyBroker} from '../source/tui/brokers/key-broker.js';
import type {EditorDraft} from '../source/tui/editor-draft.js';
import {slashCompletions} from '../source/tui/slash-commands.js';
import {showInPager} from '../source/tui/pager.js';
import {Approval} from './Approval.js';
import {AssistantText} from './AssistantText.js';
import {ChildAgents} from './ChildAgents.js';
import {MAX_DETAIL_LINES} from './ApprovalDetail.js';
import {ExtensionDialog} from './ExtensionDialog.js';
import {InputEditor} from './InputEditor.js';
import {QueuedMessages} from './QueuedMessages.js';
import type {MessageQueue, QueuedMessage} from '../source/tui/message-queue.js';
import {SlashMenu} from './SlashMenu.js';
import {MentionPicker} from './MentionPicker.js';
import {useMentionPicker} from './use-mention-picker.js';
import {UserBash} from './UserBash.js';
import {Spinner} from './Spinner.js';
import {StatusLine} from './StatusLine.js';
import {ThinkingSummary} from './ThinkingSummary.js';
import {ToolCall} from './ToolCall.js';
import {TranscriptItemView} from './TranscriptItemView.js';
import {TrustPrompt} from './TrustPrompt.js';
import {useTerminalSize} from './use-terminal-size.js';
import {useChatKeys} from './use-chat-keys.js';
import {useFocusReports} from './use-focus-reports.js';

const noSubscription = () => () => {};
const noQuestion = () => null;
const noEntries: readonly string[] = [];
const noHistory = () => noEntries;
const noQueued: readonly QueuedMessage[] = [];
const noQueue = () => noQueued;

/**
 * The open block's share of the screen's rows in the live area (a third).
 * A window narrowed while an answer streams rewraps the live area's rows,
 * and rows pushed above the screen's top can no longer be erased: a third
 * leaves room for a window narrowed to half its width.
 */
const LIVE_TAIL_SHARE = 3;

export interface AppProps {
	store: ChatStore;
	broker: ApprovalBroker;
	/** The start's question whether the workspace's own extensions may run; absent: never asked. */
	trust?: TrustBroker;
	/** The extensions' dialogs (api.runtime.uiDialog); absent: none is ever shown. */
	dialogs?: DialogBroker;
	/** The screen's own pickers (/provider, /model, the first run); absent: none is shown. */
	chooser?: ChooserBroker;
	/** The field for an API key (the first-run setup); absent: none is shown. */
	keys?: KeyBroker;
	/** Texts the screen puts in the editor (a rewound prompt); absent: none. */
	drafts?: EditorDraft;
	/** The earlier runs' prompts for ↑ and Ctrl-R (prompt-history-feed.ts); absent: only this run's. */
	history?: {subscribe(listener: () => void): () => void; getSnapshot(): readonly string[]};
	/** The messages typed while a turn runs (message-queue.ts): shown above the editor; ↑ and Esc on an empty editor take the newest out. */
	queue?: Pick<MessageQueue, 'subscribe' | 'getSnapshot' | 'pop'>;
	/** A message or command; false: it may not start now (the turn controller said why), and the text stays in the editor. */
	onSubmit(text: string): boolean | void;
	onInterrupt(): void;
	/** Shift+Tab: the next permission mode. */
	onCycleMode?(): void;
	/** Esc twice on an empty, idle editor: /rewind. */
	onRewind?(): void;
	/** /exit, Ctrl-C twice, Ctrl-D on an empty editor. */
	onExit(): void;
	/** Ctrl-Z: the terminal is given back and the process stops until `fg`. */
	onSuspend?(): void;
	/** The terminal's focus reports (focus-report.ts), which never reach the editor or any field as text. */
	onFocus?(focused: boolean): void;
}

/**
 * The chat screen: finished items written once to the scrollback (Static),
 * then the live area — the line being streamed, running tools, the approval
 * question or the editor, and the status line. The UI renders the store and
 * sends the person's actions back; it never talks to the core itself.
 */
export function App({store, broker, trust, dialogs, chooser, keys, drafts, history, queue, onSubmit, onInterrupt, onCycleMode, onRewind, onExit, onSuspend, onFocus}: AppProps) {
	useFocusReports(onFocus);
	const state = useSyncExternalStore(store.subscribe, store.getSnapshot);
	const pending = useSyncExternalStore(broker.subscribe, broker.getSnapshot);
	const trustPending = useSyncExternalStore(trust?.subscribe ?? noSubscription, trust?.getSnapshot ?? noQuestion);
	const dialog = useSyncExternalStore(dialogs?.subscribe ?? noSubscription, dialogs?.getSnapshot ?? noQuestion);
	const choice = useSyncExternalStore(chooser?.subscribe ?? noSubscription, chooser?.getSnapshot ?? noQuestion);
	const keyPending = useSyncExternalStore(keys?.subscribe ?? noSubscription, keys?.getSnapshot ?? noQuestion);
	const draftRequest = useSyncExternalStore(drafts?.subscribe ?? noSubscription, drafts?.getSnapshot ?? noQuestion);
	const earlier = useSyncExternalStore(history?.subscribe ?? noSubscription, history?.getSnapshot ?? noHistory);
	const queued = useSyncExternalStore(queue?.subscribe ?? noSubscription, queue?.getSnapshot ?? noQueue);
	// While the agent starts (the first-run setup asks then), Ctrl-C in a chooser or the key field leaves as it does elsewhere.
	const leaveWhileStarting = state.starting ? onInterrupt : undefined;
	const {columns, rows, generation, lend} = useTerminalSize();
	const [draft, setDraft] = useState('');
	const [caret, setCaret] = useState({text: '', at: 0});
	const picker = useMentionPicker(state.starting ? '' : state.status.workspace, caret.text, caret.at, state.resources);

	// The pager has the terminal meanwhile: the live area is erased before and drawn again after; the transcript stays.
	const openPager = (text: string) => {
		const problem = lend(() => showInPager(text));
		if (problem !== null) store.notice('warning', problem);
	};

	const chatKeys = useChatKeys({store, state, queue, queued, draft, drafts, openPager, onSubmit, onInterrupt, onRewind, onExit, onSuspend});

	const transcript = (
		<Static key={`${generation}-${state.cleared}`} items={state.finished}>
			{item => (
				<Box key={item.key} flexDirection="column">
					<TranscriptItemView item={item} width={columns} markdown={state.markdown} />
				</Box>
			)}
		</Static>
	);
	// Leaving or suspended: the live region is erased, so the shell's prompt starts on a clean line below the transcript.
	if (state.hidden) return transcript;
	return (
		<>
			{transcript}
			<Box flexDirection="column" marginTop={1}>
				{state.thinking === '' ? null : <ThinkingSummary live lines={state.thinking.split('\n').length} />}
				{state.partial === '' ? null : <AssistantText text={state.partial} markdown={state.markdown} width={columns} maxRows={Math.max(3, Math.floor(rows / LIVE_TAIL_SHARE))} />}
				{state.tools.map(tool => (
					<ToolCall key={tool.key} tool={tool} />
				))}
				<ChildAgents items={state.children} />
				{state.bash ? <UserBash command={state.bash.command} output={state.bash.output} /> : null}
				{trustPending ? (
					<TrustPrompt pending={trustPending} onLeave={onInterrupt} />
				) : state.starting && !choice && !keyPending ? (
					<Spinner label="starting — Ctrl-C to leave" />
				) : state.busy && !pending && !dialog && !choice && !state.bash ? (
					<Spinner label="working — Esc to stop" />
				) : null}
				{pending ? <Approval pending={pending} width={columns} maxDetailLines={Math.max(3, Math.min(MAX_DETAIL_LINES, rows - 12))} onPager={openPager} /> : null}
				{dialog ? <ExtensionDialog key={dialog.id} pending={dialog} maxVisible={rows - 10} onLeave={onInterrupt} /> : null}
				{choice && !pending && !dialog ? <ChoiceList key={choice.id} pending={choice} maxVisible={rows - 12} onLeave={leaveWhileStarting} /> : null}
				{keyPending && !pending && !dialog ? <KeyField key={keyPending.id} pending={keyPending} onLeave={leaveWhileStarting} /> : null}
				<QueuedMessages items={queued} />
				<InputEditor
					width={columns}
					isActive={pending === null && trustPending === null && dialog === null && choice === null && keyPending === null}
					history={earlier}
					placeholder={state.bash ? 'a command is running…' : state.busy ? 'the model is working…' : 'Ask i anything; /help for keys and commands'}
					onSubmit={chatKeys.submit}
					onChange={setDraft}
					onCaret={(text, at) => setCaret({text, at})}
					onListKey={picker.open ? picker.onKey : undefined}
					onTab={text => slashCompletions(text.trim(), state.commands)[0]?.name}
					onInterrupt={chatKeys.pressEscape}
					onRecall={queued.length > 0 ? () => queue?.pop()?.typed : undefined}
					onCtrlC={chatKeys.ctrlC}
					onCtrlD={onExit}
					onSuspend={chatKeys.suspend}
					onTranscript={chatKeys.showTranscript}
					onShiftTab={onCycleMode}
					draft={draftRequest}
				/>
				<MentionPicker picker={picker} />
				<SlashMenu draft={draft} commands={state.commands} />
				<StatusLine status={state.status} busy={state.busy} />
			</Box>
		</>
	);
}
