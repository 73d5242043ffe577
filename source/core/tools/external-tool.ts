import * as z from 'zod/mini';
import {toolEvent} from '../lifecycle/event-names.js';
import {compileJsonSchema, describeSchemaErrors} from '../plugins/json-schema.js';
import {WorkerError, type ManifestTool, type WorkerPool, type WorkerSpec} from '../pool/types.js';
import {describeIssues} from './arguments.js';
import {pluginOwner} from './tool-owner.js';
import {ToolInputError, ToolRunError, type Tool, type ToolResult} from './types.js';

/** A tool a manifest declares, run by its worker. The approval gate asks for every call unless --yolo. */
export interface ExternalTool extends Tool {
	readonly external: true;
	readonly worker: WorkerSpec;
}

export function isExternalTool(tool: Tool): tool is ExternalTool {
	return (tool as Partial<ExternalTool>).external === true;
}

// spec/platform.md §5: `output` must be a string and `images` may be left out; anything more is a worker bug worth naming.
const responseSchema = z.strictObject({
	output: z.string(),
	images: z.optional(z.unknown()),
});

export function createExternalTool(tool: ManifestTool, pool: WorkerPool): ExternalTool {
	// Compiled on the first call, not at start: ajv is only loaded once an external tool is used.
	let validator: ReturnType<typeof compileJsonSchema> | undefined;
	const where = `external tool "${tool.name}"${tool.module === undefined ? '' : ` of the ${tool.module} module`} (${tool.manifest})`;
	return {
		name: tool.name,
		description: tool.description,
		parameters: tool.parameters,
		external: true,
		owner: tool.owner ?? pluginOwner(tool.manifest),
		worker: tool.worker,
		async plan(args, context) {
			validator ??= compileJsonSchema(tool.parameters);
			let validate;
			try {
				validate = await validator;
			} catch (error) {
				throw new ToolRunError(`${where}: its "parameters" is not a valid JSON Schema (${(error as Error).message})`);
			}

			if (!validate(args)) throw new ToolInputError(`${tool.name}: ${describeSchemaErrors(validate.errors ?? [], 'arguments')}`);
			// The arguments are what the call does; the worker's argv is how the resident process was started, not part of this call, and the owner names whose it is.
			return {
				ask: {title: `Run ${tool.name}`, detail: JSON.stringify(args, null, 2)},
				run: async () => callWorker(tool, pool, args, where, context.signal),
			};
		},
	};
}

async function callWorker(tool: ManifestTool, pool: WorkerPool, args: Record<string, unknown>, where: string, signal: AbortSignal): Promise<ToolResult> {
	let data: Record<string, unknown>;
	try {
		data = await pool.call(tool.worker, toolEvent, {name: tool.name, arguments: args}, {signal, ...(tool.module === undefined ? {} : {module: tool.module})});
	} catch (error) {
		// The worker's command line is how its process started, not what went wrong: the model and the person get the reason.
		if (error instanceof WorkerError) throw new ToolRunError(`${where} failed: ${error.reason}`);
		throw error;
	}

	const parsed = responseSchema.safeParse(data);
	if (!parsed.success) throw new ToolRunError(`${where} returned an invalid result: ${describeIssues(parsed.error.issues, data, 'its data')}`);
	const {output, images} = parsed.data;
	// Checked by the core after after_tool (spec/platform.md §5: the result goes through after_tool first).
	return images === undefined ? {output} : {output, images};
}
