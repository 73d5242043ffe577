import {findPromptTemplate, parseTemplateCommand} from '../core/resources/prompt-template-file.js';
import type {Agent} from '../core/session/agent.js';
import {parseBangPrompt} from '../core/user-bash/bang-prompt.js';
import type {CommandContext} from './commands/command-context.js';
import type {CommandRegistry} from './commands/command-registry.js';
import type {MessageQueue} from './message-queue.js';
import type {PromptHistoryFeed} from './prompt-history-feed.js';
import type {TurnController} from './turn-controller.js';

/** What a submitted text may reach. */
export interface InputParts {
	registry: Pick<CommandRegistry, 'parse'>;
	turns: Pick<TurnController, 'mayStart' | 'start' | 'runBang' | 'enqueue' | 'sendQueued'>;
	/** The person's messages waiting: while any does, a new one goes behind them. */
	queue: Pick<MessageQueue, 'size'>;
	context: CommandContext;
	/** The workspace's prompt history, which keeps what was sent (slash and `!` commands too, as a shell does). */
	history: Pick<PromptHistoryFeed, 'record'>;
}

/**
 * What the person sent: a slash command, a prompt template, a `!` command or
 * a message. While a turn runs, a message or prompt template is queued (the
 * turn takes it after its tool batch, or the next turn starts with it), a
 * command marked `duringTurn` runs, and any other command or `!` command is
 * refused. False when refused: the text stays in the editor and out of the
 * history. Empty, it sends the oldest queued message when nothing runs.
 */
export function submitText(text: string, parts: InputParts): boolean {
	const {registry, turns, queue, context, history} = parts;
	if (text.trim() === '') {
		turns.sendQueued();
		return false;
	}

	const busy = context.store.getSnapshot().busy;
	const send = (message: string): boolean => {
		if (busy || queue.size > 0) {
			if (!turns.enqueue({typed: text, text: message})) return false;
		} else turns.start(message);
		history.record(text);
		return true;
	};

	const slash = registry.parse(text);
	if (slash === null) {
		const bang = parseBangPrompt(text);
		if (bang.kind !== 'command') return send(bang.text);
		if (!turns.mayStart()) return false;
		history.record(text);
		turns.runBang(bang.command, bang.excludeFromContext);
		return true;
	}

	if ('unknown' in slash) {
		// A prompt template is a turn: the prompts module expands it.
		if (isPromptTemplate(context.agent, text)) return send(text);
		context.store.notice('warning', `no command ${slash.unknown}; /help lists them`);
		history.record(text);
		return true;
	}

	if (busy && slash.command.duringTurn !== true) {
		context.store.notice('info', `a turn is running: wait for it, or press Esc to stop it (${slash.command.name} can't run during a turn; messages are queued)`);
		return false;
	}

	history.record(text);
	// The screen stays live while a command runs; a failure (a new session that cannot be opened) is a notice, never an unhandled rejection.
	slash.command.run(context, slash.args).catch((error: unknown) => context.store.notice('error', (error as Error).message));
	return true;
}

/** `/name …` names a prompt template the prompts module will find (a folder it cannot read counts as none here; the turn would say why). */
function isPromptTemplate(agent: Pick<Agent, 'promptTemplateFolders'>, text: string): boolean {
	const command = parseTemplateCommand(text);
	if (command === null || agent.promptTemplateFolders === null) return false;
	try {
		return findPromptTemplate(agent.promptTemplateFolders, command.name) !== undefined;
	} catch {
		return false;
	}
}
