import type {GetPromptResult} from '@modelcontextprotocol/sdk/types.js';
import type {McpPromptCommand} from './mcp-servers.js';

/** A prompt command's words: the most a person types after `/mcp__server__prompt`. */
export const MAX_PROMPT_ARGUMENT_CHARS = 64 * 1024;

/**
 * The words after `/mcp__<server>__<prompt>` as the prompt's arguments:
 * `NAME=VALUE` for any argument, or plain words for the declared arguments
 * in order ("double" or 'single' quotes keep spaces). Throws an Error that
 * names the unknown, the missing required and the surplus arguments, with
 * the prompt's own list.
 */
export function parsePromptArguments(text: string, prompt: Pick<McpPromptCommand, 'command' | 'arguments'>): Record<string, string> {
	if (text.length > MAX_PROMPT_ARGUMENT_CHARS) throw new Error(`/${prompt.command}: the arguments are over ${MAX_PROMPT_ARGUMENT_CHARS} characters`);
	const declared = prompt.arguments;
	const usage = `/${prompt.command}${declared.map(argument => (argument.required ? ` ${argument.name}=…` : ` [${argument.name}=…]`)).join('')}`;
	const values: Record<string, string> = {};
	const positional: string[] = [];
	for (const word of splitWords(text, prompt.command)) {
		const named = /^([A-Za-z_][\w-]*)=([\s\S]*)$/.exec(word);
		if (named && declared.some(argument => argument.name === named[1])) values[named[1]!] = named[2]!;
		else if (named && declared.length > 0 && !declared.some(argument => argument.name === named[1])) {
			throw new Error(`/${prompt.command} has no argument "${named[1]}"; it takes: ${describe(declared)} (${usage})`);
		} else positional.push(word);
	}

	const open = declared.filter(argument => values[argument.name] === undefined);
	if (positional.length > open.length) throw new Error(`/${prompt.command} takes ${declared.length === 0 ? 'no arguments' : `${declared.length}: ${describe(declared)}`}; got more words than that (${usage})`);
	for (const [index, word] of positional.entries()) values[open[index]!.name] = word;
	const missing = declared.filter(argument => argument.required && values[argument.name] === undefined);
	if (missing.length > 0) throw new Error(`/${prompt.command} needs ${missing.map(argument => argument.name).join(', ')} (${usage})`);
	return values;
}

function describe(declared: McpPromptCommand['arguments']): string {
	return declared.map(argument => `${argument.name}${argument.required ? '' : ' (optional)'}${argument.description ? `: ${argument.description}` : ''}`).join('; ');
}

/** Words split on blanks; "double" (with \\ escapes) or 'single' quotes keep blanks, also inside a word (`state="New York"`). */
function splitWords(text: string, command: string): string[] {
	const words: string[] = [];
	let word: string | undefined;
	let quote: '"' | "'" | undefined;
	for (let index = 0; index < text.length; index++) {
		const char = text[index]!;
		if (quote !== undefined) {
			if (char === quote) quote = undefined;
			else if (char === '\\' && quote === '"' && index + 1 < text.length) word += text[++index]!;
			else word += char;
		} else if (char === '"' || char === "'") {
			quote = char;
			word ??= '';
		} else if (/\s/.test(char)) {
			if (word !== undefined) words.push(word);
			word = undefined;
		} else word = (word ?? '') + char;
	}

	if (quote !== undefined) throw new Error(`/${command}: a ${quote === '"' ? 'double' : 'single'} quote is not closed`);
	if (word !== undefined) words.push(word);
	return words;
}

/**
 * A prompt's messages as the text of one user turn: each message's text,
 * embedded resources as their text; a prompt of several messages (or one
 * from the assistant) says whose each is.
 */
export function promptText(result: GetPromptResult): string {
	const parts = result.messages.map(message => {
		const {content} = message;
		let text: string;
		if (content.type === 'text') text = content.text;
		else if (content.type === 'resource')
			text = 'text' in content.resource && typeof content.resource.text === 'string' ? `Resource ${content.resource.uri}:\n${content.resource.text}` : `[resource ${content.resource.uri}: binary, not attached]`;
		else if (content.type === 'resource_link') text = `Resource link ${content.uri}`;
		else text = `[${content.type} content: not attached]`;
		return {role: message.role, text};
	});
	if (parts.length === 1 && parts[0]!.role === 'user') return parts[0]!.text;
	return parts.map(part => `${part.role === 'user' ? 'User' : 'Assistant'}: ${part.text}`).join('\n\n');
}
