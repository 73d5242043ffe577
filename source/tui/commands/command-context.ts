import type {Agent} from '../../core/session/agent.js';
import type {ChooserBroker} from '../brokers/chooser-broker.js';
import type {ChatStore} from '../chat-store.js';
import type {EditorDraft} from '../editor-draft.js';
import type {MessageQueue} from '../message-queue.js';
import type {SessionActions} from '../session-actions.js';
import type {TurnController} from '../turn-controller.js';
import type {SlashCommand} from './slash-command.js';

/**
 * What a slash command works with: the agent (held by reference; its
 * methods change it, its getters read it back) and the screen's parts, each
 * as far as commands use it.
 */
export interface CommandContext {
	agent: Agent;
	store: Pick<ChatStore, 'notice' | 'setBusy' | 'setStatus' | 'getSnapshot' | 'showAsked'>;
	chooser: Pick<ChooserBroker, 'ask'>;
	turns: Pick<TurnController, 'start' | 'runMcpPrompt' | 'runExtensionCommand'>;
	sessions: Pick<SessionActions, 'clear' | 'resume' | 'fork' | 'rename' | 'readInstructions'>;
	/** Puts a text in the editor (/rewind: the rewound prompt). */
	draft: Pick<EditorDraft, 'set'>;
	/** Loads every extension again (with `i dev`, a new build first); a failure leaves the loaded ones and says why. */
	extensions: {reload(): Promise<void>};
	/** What /help shows: the keys, then every command the registry holds. */
	commands: {help(): string};
	/** The person's messages waiting for the running turn (/queue). */
	queue: Pick<MessageQueue, 'getSnapshot' | 'takeAll'>;
	/** Ends the chat as the person leaving (exit 0). */
	leave(): void;
}

/** A slash command of the chat screen: one file each (this folder), or one an extension or an MCP server added. */
export interface ScreenCommand extends SlashCommand {
	/** How it is typed, as its usage notice says. */
	usage: string;
	/** Whether words may follow its name; with words, a command that takes none is no command. */
	takesArguments: boolean;
	/** Runs while a turn runs too (it only reads, or only touches the queue); any other is refused then. */
	duringTurn?: boolean;
	/** Runs it; the screen stays live meanwhile, and a failure is an error notice. */
	run(context: CommandContext, args: string): Promise<void>;
}
