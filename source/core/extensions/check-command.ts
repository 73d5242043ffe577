import type {ExtensionCommand, MarkdownTransformer} from './api.js';

/** A customType (renderers, entries, custom messages): 1–64 of `A-Z a-z 0-9 _ . : -`; i's own bound (spec/extensions.md §3). Here, not with the delivery checks, so loading an extension never builds their schemas. */
export const MAX_CUSTOM_TYPE_LENGTH = 64;
export const CUSTOM_TYPE_PATTERN = new RegExp(`^[A-Za-z0-9_.:-]{1,${MAX_CUSTOM_TYPE_LENGTH}}$`);

/**
 * The chat screen's own slash commands, by name: an extension's command never
 * takes one. The chat screen's list (source/tui/slash-commands.ts) is checked
 * against this one by a test, so the two cannot drift.
 */
export const builtinCommandNames: readonly string[] = [
	'help',
	'clear',
	'resume',
	'fork',
	'rewind',
	'rename',
	'session',
	'provider',
	'model',
	'cost',
	'diff',
	'queue',
	'permissions',
	'theme',
	'compact',
	'reload',
	'context',
	'init',
	'mcp',
	'exit',
];

/** `/name`: lower-case letters, digits and `-`, starting with a letter; short enough for the completion list. */
export const MAX_COMMAND_NAME_LENGTH = 32;
const commandNamePattern = /^[a-z][a-z0-9-]{0,31}$/;
/** One line of /help and of the completion list. */
export const MAX_COMMAND_DESCRIPTION_CHARS = 200;

/** A command `registerCommand` was given, checked field by field (a copy). Throws an Error naming the field. */
export function checkCommand(name: unknown, command: unknown): {name: string; command: ExtensionCommand} {
	if (typeof name !== 'string' || !commandNamePattern.test(name)) {
		const hint = typeof name === 'string' && name.startsWith('/') ? ' (without the leading /)' : '';
		throw new Error(`registerCommand: the name must be 1–${MAX_COMMAND_NAME_LENGTH} lower-case letters, digits or "-", starting with a letter${hint} (got ${JSON.stringify(name)})`);
	}

	const where = `registerCommand /${name}`;
	if (command === null || typeof command !== 'object' || Array.isArray(command)) throw new Error(`${where}: takes (name, {description, handler(args, ctx)})`);
	const {description, handler} = command as Record<string, unknown>;
	if (typeof description !== 'string' || description.trim() === '') throw new Error(`${where}: description must be a non-empty string`);
	if (description.length > MAX_COMMAND_DESCRIPTION_CHARS || description.includes('\n')) throw new Error(`${where}: description must be one line of at most ${MAX_COMMAND_DESCRIPTION_CHARS} characters`);
	if (typeof handler !== 'function') throw new Error(`${where}: handler must be a function (args, ctx) => text`);
	return {name, command: {description, handler: handler as ExtensionCommand['handler']}};
}

export function checkMarkdownTransformer(transform: unknown): MarkdownTransformer {
	if (typeof transform !== 'function') throw new Error('registerMarkdownTransformer takes a function ({text}) => {text} | {lines}');
	return transform as MarkdownTransformer;
}

/**
 * A `registerMessageRenderer` / `registerEntryRenderer` call, checked: the
 * customType follows appendEntry's and sendMessage's rule, the renderer is a
 * function. Throws an Error naming the slot and the field.
 */
export function checkRenderer<Render>(slot: 'registerMessageRenderer' | 'registerEntryRenderer', customType: unknown, render: unknown): {customType: string; render: Render} {
	if (typeof customType !== 'string' || !CUSTOM_TYPE_PATTERN.test(customType)) {
		throw new Error(`${slot}: the customType must be 1–${MAX_CUSTOM_TYPE_LENGTH} characters of A-Z a-z 0-9 _ . : - (got ${JSON.stringify(customType)})`);
	}

	const takes = slot === 'registerMessageRenderer' ? '({customType, content, display, details})' : '({customType, data})';
	if (typeof render !== 'function') throw new Error(`${slot} ${customType}: the renderer must be a function ${takes} => {text} | {lines}`);
	return {customType, render: render as Render};
}
