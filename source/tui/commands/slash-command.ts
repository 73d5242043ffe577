/** A slash command as the completion list and /help show it. */
export interface SlashCommand {
	/** With the slash: `/help`. */
	name: string;
	description: string;
	/** Whose command it is, when an extension's: /help names it. */
	extension?: string;
}
