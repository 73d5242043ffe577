import {compileJsonSchema, describeSchemaErrors} from '../plugins/json-schema.js';
import {mcpOwner} from '../tools/tool-owner.js';
import {ToolInputError, ToolRunError, type Tool, type ToolResult} from '../tools/types.js';

/** A tool as a server lists it, with the name the model calls it by. */
export interface McpToolInfo {
	/** `mcp__<server>__<tool>` (mcp-tool-name.ts). */
	name: string;
	/** The server's own name for it: what `tools/call` is sent. */
	serverToolName: string;
	description: string;
	parameters: Record<string, unknown>;
	/** The server annotates it `readOnlyHint: true`: its calls may run side by side with other read-only calls. */
	readOnly?: boolean;
}

/** What a tool needs of its server: the call itself, with the turn's signal. */
export interface McpCaller {
	readonly server: string;
	/** The settings file that configures the server, for the approval. */
	readonly file: string;
	callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult>;
}

/**
 * A server's tool as a core tool: its JSON Schema checks the arguments
 * (ajv, as for external tools), the approval asks unless the server's
 * `alwaysAllow` lists it (or --yolo), and the call goes through the whole
 * tool path (before_tool, after_tool, the output budget, the image checks).
 * `readOnlyHint` changes none of that: it only lets the call run beside
 * other read-only calls of its batch.
 */
export function createMcpTool(info: McpToolInfo, server: McpCaller, alwaysAllow: boolean): Tool {
	let validator: ReturnType<typeof compileJsonSchema> | undefined;
	return {
		name: info.name,
		description: info.description,
		parameters: info.parameters,
		owner: mcpOwner(server.server, server.file),
		...(info.readOnly === true ? {readOnly: true} : {}),
		// Listed in alwaysAllow: the person's own setting waives the ask, as for a native tool that needs none.
		...(alwaysAllow ? {} : {external: true}),
		async plan(args, context) {
			validator ??= compileJsonSchema(info.parameters);
			let validate;
			try {
				validate = await validator;
			} catch (error) {
				throw new ToolRunError(`${info.name}: the MCP server ${server.server} lists a "inputSchema" that is not a valid JSON Schema (${(error as Error).message})`);
			}

			if (!validate(args)) throw new ToolInputError(`${info.name}: ${describeSchemaErrors(validate.errors ?? [], 'arguments')}`);
			return {
				ask: alwaysAllow ? null : {title: `Run ${info.serverToolName}`, detail: JSON.stringify(args, null, 2)},
				run: async () => server.callTool(info.serverToolName, args, context.signal),
			};
		},
	};
}
