import {resolveDirs, type PlatformDirs} from '../source/core/config/dirs.js';
import {validateRequestContext} from '../source/core/config/request-context.js';
import {errorMessage} from '../source/core/errors.js';
import {lifecycleEvents, toolEvent, type LifecycleEvent} from '../source/core/hooks/event-names.js';
import {encodeFrame, FrameDecoder, FrameError} from '../source/core/pool/frames.js';

/** What a handler knows about the request beyond its data (seed §3). */
export interface WorkerContext {
	/** The request's workspace, when the host sent one. */
	workspace: string | undefined;
	/** The request's workspace ID, when the host sent one (a trusted binding). */
	workspace_id: string | undefined;
	/** The request's `paths`, else the I_*_DIR folders (defaults under ~/.i). */
	paths: PlatformDirs;
}

/** Returns the full data (hooks) or the tool's result; throwing answers with an error frame. */
export type Handler = (data: Record<string, unknown>, context: WorkerContext) => Promise<Record<string, unknown>>;

export interface WorkerDefinition {
	/** For messages. */
	name: string;
	hooks?: Partial<Record<LifecycleEvent, Handler>>;
	/** By tool name; a `tool` request is dispatched on its `data.name`. */
	tools?: Record<string, Handler>;
}

/** A frame that cannot be answered: without a usable ID there is nothing to correlate a reply with. */
class FatalFrameError extends Error {}

/** The host closed our stdout: no one is left to answer. */
class StdoutError extends Error {}

const lifecycle = new Set<string>(lifecycleEvents);

/**
 * Serves NDJSON requests on stdin until EOF (seed §2), one at a time and in
 * order, writing exactly one response frame per request and waiting for it
 * to be flushed before reading on. A request with a usable ID but bad parts
 * (event, data, context) gets an error frame; a frame without one (not JSON,
 * not an object, no unsigned integer ID), a frame over 48 MiB or a frame cut
 * off by EOF ends the worker with exit 1 and a note on stderr, since the
 * host evicts a worker on any protocol failure anyway. Returns the exit code:
 * 0 at a clean EOF.
 */
export async function serve(worker: WorkerDefinition): Promise<number> {
	// stdout carries frames only; a stray console.log from a handler goes to stderr.
	console.log = console.error;
	console.info = console.error;
	console.debug = console.error;
	const fallbackPaths = resolveDirs();
	const decoder = new FrameDecoder();
	try {
		for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
			for (const text of decoder.push(chunk)) {
				const response = await respond(worker, text, fallbackPaths);
				await writeFrame(response);
			}
		}
	} catch (error) {
		if (!(error instanceof FatalFrameError || error instanceof FrameError || error instanceof StdoutError)) throw error;
		process.stderr.write(`i worker ${worker.name}: ${errorMessage(error)}\n`);
		return 1;
	}

	if (decoder.pendingBytes > 0) {
		process.stderr.write(`i worker ${worker.name}: stdin ended inside a frame (${decoder.pendingBytes} bytes without a newline)\n`);
		return 1;
	}

	return 0;
}

async function respond(worker: WorkerDefinition, text: string, fallbackPaths: PlatformDirs): Promise<Buffer> {
	let request: unknown;
	try {
		request = JSON.parse(text);
	} catch (error) {
		throw new FatalFrameError(`a request frame is not valid JSON (${errorMessage(error)})`);
	}

	if (request === null || typeof request !== 'object' || Array.isArray(request)) throw new FatalFrameError('a request frame is not a JSON object');
	const frame = request as Record<string, unknown>;
	const {id} = frame;
	if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) throw new FatalFrameError(`a request frame has no unsigned integer "id" (got ${JSON.stringify(id)})`);
	let data: Record<string, unknown>;
	try {
		data = await dispatch(worker, frame, fallbackPaths);
	} catch (error) {
		return encodeFrame({id, error: errorMessage(error)});
	}

	try {
		return encodeFrame({id, data});
	} catch (error) {
		if (!(error instanceof FrameError)) throw error;
		return encodeFrame({id, error: `the ${worker.name} worker's response is too large: ${error.message}`});
	}
}

async function dispatch(worker: WorkerDefinition, frame: Record<string, unknown>, fallbackPaths: PlatformDirs): Promise<Record<string, unknown>> {
	const {event, data} = frame;
	if (typeof event !== 'string') throw new Error(`field "event" must be a string (got ${JSON.stringify(event)})`);
	if (!isRecord(data)) throw new Error('field "data" must be an object');
	const given = validateRequestContext(frame);
	const context: WorkerContext = {workspace: given.workspace, workspace_id: given.workspace_id, paths: given.paths ?? fallbackPaths};
	const handler = pickHandler(worker, event, data);
	// Hooks return full data: an event this worker does not handle passes through unchanged.
	if (!handler) return data;
	const result = await handler(data, context);
	if (!isRecord(result)) throw new Error(`the ${worker.name} worker's ${event} handler returned no object`);
	return result;
}

function pickHandler(worker: WorkerDefinition, event: string, data: Record<string, unknown>): Handler | undefined {
	if (event === toolEvent) {
		const tools = worker.tools ?? {};
		const name = data.name;
		if (typeof name !== 'string') throw new Error('field "data.name" must be the tool name');
		const tool = Object.hasOwn(tools, name) ? tools[name] : undefined;
		if (!tool) throw new Error(`unknown tool "${name}"; the ${worker.name} worker provides: ${Object.keys(tools).join(', ') || 'no tools'}`);
		return tool;
	}

	if (!lifecycle.has(event)) throw new Error(`unknown event "${event}" for the ${worker.name} worker`);
	return worker.hooks?.[event as LifecycleEvent];
}

function writeFrame(frame: Buffer): Promise<void> {
	return new Promise((resolve, reject) => {
		process.stdout.write(frame, error => (error ? reject(new StdoutError(`cannot write to stdout (${errorMessage(error)})`)) : resolve()));
	});
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}
