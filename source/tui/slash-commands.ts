/** The chat screen's slash commands, in the order the completion list shows them. */
export const slashCommands = [
	{name: '/help', description: 'keys and commands'},
	{name: '/clear', description: 'start a new session (the old one stays saved)'},
	{name: '/session', description: 'this session: its ID, file and size'},
	{name: '/compact', description: 'compact the history now (needs a compaction plugin)'},
	{name: '/exit', description: 'leave i'},
] as const;

export type SlashCommandName = (typeof slashCommands)[number]['name'];

/** The commands a draft could be completing: only while it is a single word starting with `/`. */
export function slashCompletions(draft: string): ReadonlyArray<(typeof slashCommands)[number]> {
	// Length first: a large paste must not cost a regex pass on every key.
	if (draft.length > 16 || !/^\/[\w-]*$/.test(draft)) return [];
	return slashCommands.filter(command => command.name.startsWith(draft));
}

/** The command a submitted text names, or null when it is a message (or an unknown command, returned as such). */
export function parseSlashCommand(text: string): {name: SlashCommandName} | {unknown: string} | null {
	const trimmed = text.trim();
	if (!trimmed.startsWith('/') || trimmed.includes('\n')) return null;
	const word = trimmed.split(/\s+/, 1)[0]!;
	const command = slashCommands.find(candidate => candidate.name === word);
	return command ? {name: command.name} : {unknown: word};
}

export const keysHelp = [
	'Enter sends · Alt+Enter or Ctrl-J starts a new line · ↑/↓ history · Ctrl-←/→ word jumps',
	'Esc or Ctrl-C stops a running turn · Ctrl-C twice on an empty prompt leaves',
	'Approvals: y allow once · a allow the tool for this session · n deny with a reason · Esc deny',
	...slashCommands.map(command => `${command.name.padEnd(9)} ${command.description}`),
].join('\n');
