/** A slash command as the completion list and /help show it. */
export interface SlashCommand {
	/** With the slash: `/help`. */
	name: string;
	description: string;
}

/** The chat screen's own slash commands, in the order the completion list shows them; extensions' commands follow. */
export const slashCommands = [
	{name: '/help', description: 'keys and commands'},
	{name: '/clear', description: 'start a new session (the old one stays saved)'},
	{name: '/resume', description: "open another of this workspace's sessions (a picker: type to filter)"},
	{name: '/fork', description: 'continue in a copy of this session (the original stays as it is)'},
	{name: '/rename', description: 'rename this session: /rename NAME'},
	{name: '/session', description: 'this session: its ID, file and size'},
	{name: '/provider', description: 'choose a provider (/provider ID switches, /provider remove ID removes a models.json entry)'},
	{name: '/model', description: 'choose a model of the provider (/model ID or PROVIDER/MODEL switches)'},
	{name: '/cost', description: "the last turn's and this session's cost, tokens and prices"},
	{name: '/compact', description: 'compact the history now (needs a compaction plugin)'},
	{name: '/reload', description: 'load every extension and AGENTS.md again (i dev: build first)'},
	{name: '/context', description: 'what the next request holds, in estimated tokens and share of the window'},
	{name: '/init', description: 'ask the model to write or improve AGENTS.md for this project'},
	{name: '/mcp', description: 'MCP servers: state, tools, last error (/mcp reconnect NAME starts one again; /mcp login NAME, /mcp logout NAME)'},
	{name: '/exit', description: 'leave i'},
] as const;

export type SlashCommandName = (typeof slashCommands)[number]['name'];

/** The screen's commands that take words after them; the others take none. */
const takesArguments: ReadonlySet<string> = new Set(['/provider', '/model', '/rename', '/mcp']);

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
export function parseSlashCommand(text: string, extra: readonly SlashCommand[] = []): {name: SlashCommandName; args?: string} | {extension: string; args: string} | {unknown: string} | null {
	const trimmed = text.trim();
	if (!trimmed.startsWith('/')) return null;
	const word = trimmed.split(/\s/, 1)[0]!;
	const args = trimmed.slice(word.length).trim();
	const command = slashCommands.find(candidate => candidate.name === word);
	// The screen's own commands take no arguments but /provider's, /model's and /rename's, and a message of several lines is a message.
	if (command && args === '') return {name: command.name};
	if (command && takesArguments.has(command.name) && !args.includes('\n')) return {name: command.name, args};
	if (extra.some(candidate => candidate.name === word)) return {extension: word.slice(1), args};
	if (trimmed.includes('\n')) return null;
	return {unknown: word};
}

/** What /help shows: the keys, then every command, the extensions' last with whose they are. */
export function keysHelp(extra: ReadonlyArray<SlashCommand & {extension?: string}> = []): string {
	return [
		'Enter sends · Alt+Enter or Ctrl-J starts a new line · ↑/↓ history · Ctrl-←/→ word jumps',
		'Esc or Ctrl-C stops a running turn · Ctrl-C twice on an empty prompt leaves',
		'@path attaches a file (@ opens a picker: ↑/↓, Tab or Enter, Esc) · !command runs it and adds its output to your next message · !! runs without adding',
		'Approvals: y allow once · a allow the tool for this session · n deny with a reason · Esc deny',
		...slashCommands.map(command => `${command.name.padEnd(9)} ${command.description}`),
		...extra.map(command => `${command.name.padEnd(9)} ${command.description}${command.extension === undefined ? '' : ` (extension ${command.extension})`}`),
	].join('\n');
}
