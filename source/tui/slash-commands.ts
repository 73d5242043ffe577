import {builtinCommands} from './commands/builtin-commands.js';
import type {SlashCommand} from './commands/slash-command.js';

/** The chat screen's own slash commands (commands/builtin-commands.ts), as the completion list and /help show them. */
export const slashCommands: readonly SlashCommand[] = builtinCommands.map(({name, description}) => ({name, description}));

/** The screen's commands that take words after them; the others take none. */
const takesArguments: ReadonlySet<string> = new Set(builtinCommands.filter(command => command.takesArguments).map(command => command.name));

/** The commands a draft could be completing: only while it is a single word starting with `/`. */
export function slashCompletions(draft: string, extra: readonly SlashCommand[] = []): readonly SlashCommand[] {
	// Length first: a large paste must not cost a regex pass on every key.
	if (draft.length > 40 || !/^\/[\w-]*$/.test(draft)) return [];
	return [...slashCommands, ...extra].filter(command => command.name.startsWith(draft));
}

/**
 * The command a submitted text names and the words after it, or null when it
 * is a message. A name that is neither the screen's nor in `extra` comes back
 * as unknown.
 */
export function parseSlashCommand(text: string, extra: readonly SlashCommand[] = []): {name: string; args?: string} | {extension: string; args: string} | {unknown: string} | null {
	const trimmed = text.trim();
	if (!trimmed.startsWith('/')) return null;
	const word = trimmed.split(/\s/, 1)[0]!;
	const args = trimmed.slice(word.length).trim();
	const command = slashCommands.find(candidate => candidate.name === word);
	// The screen's own commands take no arguments but those that say so, and a message of several lines is a message.
	if (command && args === '') return {name: command.name};
	if (command && takesArguments.has(command.name) && !args.includes('\n')) return {name: command.name, args};
	if (extra.some(candidate => candidate.name === word)) return {extension: word.slice(1), args};
	if (trimmed.includes('\n')) return null;
	return {unknown: word};
}

/** What /help shows: the keys, then every command, the extensions' last with whose they are. */
export function keysHelp(extra: readonly SlashCommand[] = []): string {
	return [
		'Enter sends · Alt+Enter or Ctrl-J starts a new line · ↑/↓ history (earlier runs too) · Ctrl-R searches it · Ctrl-←/→ word jumps',
		'Esc or Ctrl-C stops a running turn · Esc twice on an empty prompt rewinds (/rewind) · Ctrl-C twice on an empty prompt leaves',
		'Ctrl-O shows the whole transcript in $PAGER: folded tool results, diffs and thinking in full · a paste of over 10 lines shows as [pasted N lines #K] and is sent whole',
		'Enter while a turn runs queues the message (/queue lists them) · on an empty prompt ↑ takes the last queued back to edit, Esc drops it (then Esc stops the turn; Ctrl-C always does)',
		'Shift+Tab cycles the permission mode: default · accept edits · plan mode (· bypass, when the run started with it)',
		'@path attaches a file (@ opens a picker: ↑/↓, Tab or Enter, Esc) · !command runs it and adds its output to your next message · !! runs without adding',
		'Approvals: y allow once · a allow the tool for this session · r always, for this project (when offered) · n deny with a reason · Esc deny · ↑/↓ PgUp/PgDn Home/End scroll the diff · p opens it in $PAGER',
		...slashCommands.map(command => `${command.name.padEnd(9)} ${command.description}`),
		...extra.map(command => `${command.name.padEnd(9)} ${command.description}${command.extension === undefined ? '' : ` (extension ${command.extension})`}`),
	].join('\n');
}
