import type {ModuleTool} from './module-tool.js';

/**
 * A memory key: 1–200 ASCII letters, digits and `. _ - : /`, starting with a
 * letter or digit, so keys read well in a listing, need no quoting and can
 * never be `__proto__` or a path like `../x`. The memory worker checks the
 * same rule; the schema only lets the core refuse a bad call early.
 */
export const MAX_MEMORY_KEY_CHARS = 200;
export const MEMORY_KEY_PATTERN = `^[A-Za-z0-9][A-Za-z0-9._:/-]{0,${MAX_MEMORY_KEY_CHARS - 1}}$`;

const key = {
	type: 'string',
	minLength: 1,
	maxLength: MAX_MEMORY_KEY_CHARS,
	pattern: MEMORY_KEY_PATTERN,
	description: 'The entry\'s key: 1–200 ASCII letters, digits and . _ - : /, starting with a letter or digit (e.g. "style/indent").',
};

/** The memory module's tools (spec/platform.md §9): the model-facing definitions only; the worker does the work. */
export const memoryTools: readonly ModuleTool[] = [
	{
		name: 'memory_read',
		description:
			'Read the workspace memory: notes kept across sessions. Without "key", lists every entry (key, text, last update; long listings are cut and name the keys left out); with "key", returns that one entry.',
		parameters: {type: 'object', properties: {key}, additionalProperties: false},
	},
	{
		name: 'memory_write',
		description:
			'Create or replace one workspace memory entry. Keep entries short and factual (decisions, conventions, where things are). Text is at most 64 KiB, there are at most 500 entries, and all of them together must fit 256 KiB. Never store secrets (API keys, passwords, tokens, private keys): they are refused.',
		parameters: {
			type: 'object',
			properties: {key, text: {type: 'string', minLength: 1, description: "The entry's text (replaces any earlier text under this key)."}},
			required: ['key', 'text'],
			additionalProperties: false,
		},
	},
	{
		name: 'memory_delete',
		description: 'Delete one workspace memory entry by key.',
		parameters: {type: 'object', properties: {key}, required: ['key'], additionalProperties: false},
	},
];
