import {findPromptTemplate, parseTemplateCommand} from '../core/resources/prompt-template-file.js';
import type {Agent} from '../core/session/agent.js';
import {parseBangPrompt} from '../core/user-bash/bang-prompt.js';
import type {CommandContext} from './commands/command-context.js';
import type {CommandRegistry} from './commands/command-registry.js';
import type {PromptHistoryFeed} from './prompt-history-feed.js';
import type {TurnController} from './turn-controller.js';

/** What a submitted text may reach. */
export interface InputParts {
	registry: Pick<CommandRegistry, 'parse'>;
	turns: Pick<TurnController, 'mayStart' | 'start' | 'runBang'>;
	context: CommandContext;
	/** The workspace's prompt history, which keeps what was sent (slash and `!` commands too, as a shell does). */
	history: Pick<PromptHistoryFeed, 'record'>;
}

/**
 * What the person sent: a slash command, a prompt template, a `!` command or
 * a message. False when nothing may start now (a turn is running): the text
 * stays in the editor and is not added to the history.
 */
export function submitText(text: string, parts: InputParts): boolean {
	const {registry, turns, context, history} = parts;
	if (!turns.mayStart()) return false;
	history.record(text);
	const slash = registry.parse(text);
	if (slash === null) {
		const bang = parseBangPrompt(text);
		if (bang.kind === 'command') turns.runBang(bang.command, bang.excludeFromContext);
		else turns.start(bang.text);
		return true;
	}

	if ('unknown' in slash) {
		// A prompt template is a turn: the prompts module expands it.
		if (isPromptTemplate(context.agent, text)) turns.start(text);
		else context.store.notice('warning', `no command ${slash.unknown}; /help lists them`);
		return true;
	}

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
