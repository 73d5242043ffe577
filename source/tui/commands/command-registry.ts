import {keysHelp, parseSlashCommand} from '../slash-commands.js';
import {builtinCommands} from './builtin-commands.js';
import type {ScreenCommand} from './command-context.js';

/** A submitted text as the registry reads it: a command and its words, a `/word` it does not know, or (null) a message. */
export type ParsedCommand = {command: ScreenCommand; args: string} | {unknown: string} | null;

/**
 * The chat screen's slash commands: its own (one file each in this folder),
 * then the ones the loaded extensions and the ready MCP servers add, which
 * join and leave as those load, reload, start and stop. /help and the
 * completion list show what it holds; a submitted text is parsed against it.
 */
export class CommandRegistry {
	#added: readonly ScreenCommand[] = [];

	/** The commands after the screen's own: the extensions', then the MCP servers' prompts. */
	get added(): readonly ScreenCommand[] {
		return this.#added;
	}

	/** Every command, in the order the completion list and /help show them. */
	all(): readonly ScreenCommand[] {
		return [...builtinCommands, ...this.#added];
	}

	/** The extensions' commands and the MCP servers' prompts as they are now, in place of those before. */
	replaceAdded(commands: readonly ScreenCommand[]): void {
		this.#added = commands;
	}

	/** The command `text` names with the words after it; unknown, or null when it is a message (parseSlashCommand's rules). */
	parse(text: string): ParsedCommand {
		const slash = parseSlashCommand(text, this.#added);
		if (slash === null || 'unknown' in slash) return slash;
		const name = 'name' in slash ? slash.name : `/${slash.extension}`;
		// parseSlashCommand found the name among these.
		const command = this.all().find(candidate => candidate.name === name);
		return {command: command!, args: slash.args ?? ''};
	}

	/** What /help shows: the keys, then every command, the extensions' with whose they are. */
	help(): string {
		return keysHelp(this.#added);
	}
}
