import type {ExtensionTool} from './api.js';

/** The manifest rule for tool names (spec/platform.md §5): 1–64 of `A-Z a-z 0-9 _ -`. */
export const MAX_TOOL_NAME_LENGTH = 64;
const toolNamePattern = /^[A-Za-z0-9_-]{1,64}$/;
/** The longest deadline a tool may declare (`timeoutSeconds`): an hour, as an MCP server's calls. */
export const MAX_TOOL_TIMEOUT_SECONDS = 3600;
/** A description is sent to the model with every request: long enough to explain, short enough not to crowd the prompt. */
export const MAX_TOOL_DESCRIPTION_CHARS = 8192;

/**
 * The tool `registerTool` was given, checked field by field; a copy, so an
 * extension changing its object later changes nothing in the host. Throws
 * an Error naming the field.
 */
export function checkExtensionTool(value: unknown): ExtensionTool {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('registerTool takes an object: {name, description, parameters, execute}');
	const tool = value as Record<string, unknown>;
	const {name, description, parameters, execute, label, readOnly, timeoutSeconds} = tool;
	if (typeof name !== 'string' || !toolNamePattern.test(name)) {
		throw new Error(`registerTool: name must be 1–${MAX_TOOL_NAME_LENGTH} ASCII letters, digits, "_" or "-" (got ${JSON.stringify(name)})`);
	}

	const where = `registerTool "${name}"`;
	if (typeof description !== 'string' || description.trim().length === 0) throw new Error(`${where}: description must be a non-empty string`);
	if (description.length > MAX_TOOL_DESCRIPTION_CHARS) throw new Error(`${where}: description is over ${MAX_TOOL_DESCRIPTION_CHARS} characters`);
	if (parameters === null || typeof parameters !== 'object' || Array.isArray(parameters) || (parameters as Record<string, unknown>).type !== 'object') {
		throw new Error(`${where}: parameters must be a JSON Schema object with "type": "object"`);
	}

	let schema: Record<string, unknown>;
	try {
		schema = JSON.parse(JSON.stringify(parameters)) as Record<string, unknown>;
	} catch (error) {
		throw new Error(`${where}: parameters must be plain JSON (${(error as Error).message})`);
	}

	if (typeof execute !== 'function') throw new Error(`${where}: execute must be a function (params, ctx) => result`);
	if (label !== undefined && typeof label !== 'string') throw new Error(`${where}: label must be a string`);
	if (readOnly !== undefined && typeof readOnly !== 'boolean') throw new Error(`${where}: readOnly must be true or false (got ${JSON.stringify(readOnly)})`);
	if (timeoutSeconds !== undefined && (!Number.isInteger(timeoutSeconds) || (timeoutSeconds as number) < 1 || (timeoutSeconds as number) > MAX_TOOL_TIMEOUT_SECONDS)) {
		throw new Error(`${where}: timeoutSeconds must be a whole number of seconds from 1 to ${MAX_TOOL_TIMEOUT_SECONDS} (got ${JSON.stringify(timeoutSeconds)})`);
	}

	return {
		name,
		description,
		parameters: schema,
		...(label === undefined ? {} : {label}),
		...(readOnly === true ? {readOnly} : {}),
		...(timeoutSeconds === undefined ? {} : {timeoutSeconds: timeoutSeconds as number}),
		execute: execute as ExtensionTool['execute'],
	};
}
