import {fdIo} from './fd-io.js';
import {resolveDirs, type PlatformDirs} from '../../source/core/config/dirs.js';
import {validateRequestContext} from '../../source/core/config/request-context.js';
import {errorMessage} from '../../source/core/errors.js';
import type {ResourceFolders} from '../../source/core/resources/resource-folders.js';
import {lifecycleEvents, toolEvent, type LifecycleEvent} from '../../source/core/lifecycle/event-names.js';
import {encodeFrame, FrameDecoder, FrameError} from '../../source/core/pool/frames.js';
import {MAX_ANSWER_WARNINGS} from '../../source/core/pool/response-frame.js';
import {AfterAnswer, type AfterAnswerOptions} from './after-answer.js';
import {ReuseReceiver} from './reuse-receiver.js';
import type {FrameInput, FrameOutput} from './worker-io.js';

/** What a handler knows about the request beyond its data (spec/platform.md §3). */
export interface WorkerContext {
	/** The request's workspace, when the host sent one. */
	workspace: string | undefined;
	/** The request's workspace ID, when the host sent one (a trusted binding). */
	workspace_id: string | undefined;
	/** The request's `paths`, else the I_*_DIR folders (defaults under ~/.i). */
	paths: PlatformDirs;
	/** The skill and prompt folders the host named, when it named any; else each module uses the workspace's own. */
	resources: ResourceFolders | undefined;
	/**
	 * Runs `task` after the answer, in the background, after the tasks
	 * added before it and before the worker exits: work the answer does not
	 * wait for (a statistics write). The next requests are served meanwhile.
	 * If it fails, the next answer is that error, or the worker exits 1
	 * naming it at EOF, so a failure is never silent. With `delayMs`, it
	 * runs that much later (at once at EOF).
	 */
	afterAnswer(task: () => Promise<void>, options?: AfterAnswerOptions): void;
	/**
	 * Tells the person of a problem that does not fail the request (a skill
	 * left out): sent with the answer as one of its `warnings`
	 * (spec/platform.md §2), which `i` shows for a hook's answer. At most
	 * MAX_ANSWER_WARNINGS an answer; a worker tells each problem once.
	 */
	warn(message: string): void;
}

/** Returns the full data (hooks) or the tool's result; throwing answers with an error frame. */
export type Handler = (data: Record<string, unknown>, context: WorkerContext) => Promise<Record<string, unknown>>;

export interface WorkerDefinition {
	/** For messages: the module's name. */
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
 * Several modules in one process (the official host, spec/platform.md §2 for one
 * resident worker): each request names its module at the top level,
 * beside `workspace` and `paths`, and is served by that module's
 * definition, made on its first request.
 */
export interface ModuleHost {
	/** For messages: `official`. */
	name: string;
	/** The modules it serves. */
	modules: readonly string[];
	/** The definition of one of `modules`; called once per module. */
	load(module: string): Promise<WorkerDefinition>;
	/**
	 * Modules to load before their first request, one at a time while no
	 * request is waiting: the host starts before the core needs it, and
	 * what it loads meanwhile is not waited for later.
	 */
	preload?: readonly string[];
}

/**
 * Serves NDJSON requests on stdin until EOF (spec/platform.md §2), one at a time and in
 * order, writing exactly one response frame per request and waiting for it
 * to be flushed before reading on. A request with a usable ID but bad parts
 * (event, data, context) gets an error frame; a frame without one (not JSON,
 * not an object, no unsigned integer ID), a frame over 48 MiB or a frame cut
 * off by EOF ends the worker with exit 1 and a note on stderr, since the
 * host evicts a worker on any protocol failure anyway. Returns the exit code:
 * 0 at a clean EOF.
 */
export async function serve(worker: WorkerDefinition | ModuleHost): Promise<number> {
	const io = fdIo();
	// stdout carries frames only; a stray console.log from a handler goes to stderr.
	console.log = console.error;
	console.info = console.error;
	console.debug = console.error;
	const fallbackPaths = resolveDirs();
	const decoder = new FrameDecoder();
	const reuse = new ReuseReceiver();
	const later = new AfterAnswer();
	const contexts = new ContextCache();
	const pick = 'load' in worker ? hostPicker(worker) : async () => worker;
	if ('load' in worker) preload(worker.preload ?? [], pick);
	try {
		await eachChunk(io.input, async chunk => {
			for (const text of decoder.push(chunk)) {
				const response = await respond(text, {pick, fallbackPaths, contexts, reuse, later});
				await writeFrame(io.output, response);
				later.release();
			}
		});
	} catch (error) {
		// What earlier answers left to do is still done: the host may be gone, the statistics are not.
		await later.settle();
		if (!(error instanceof FatalFrameError || error instanceof FrameError || error instanceof StdoutError)) throw error;
		process.stderr.write(`i worker ${worker.name}: ${errorMessage(error)}\n`);
		return 1;
	}

	await later.settle();
	const failed = later.takeFailure();
	if (failed !== undefined) {
		process.stderr.write(`i worker ${worker.name}: ${failed}\n`);
		return 1;
	}

	if (decoder.pendingBytes > 0) {
		process.stderr.write(`i worker ${worker.name}: stdin ended inside a frame (${decoder.pendingBytes} bytes without a newline)\n`);
		return 1;
	}

	return 0;
}

/** The definition that serves a request: the one module, or the host's module the frame names. */
type Picker = (frame: Record<string, unknown>) => Promise<WorkerDefinition>;

function hostPicker(host: ModuleHost): Picker {
	const loaded = new Map<string, Promise<WorkerDefinition>>();
	return async frame => {
		const {module} = frame;
		if (typeof module !== 'string' || !host.modules.includes(module)) {
			const got = module === undefined ? 'none' : JSON.stringify(module);
			throw new Error(`the ${host.name} worker serves several modules, so each request names one in a top-level "module" (got ${got}); modules: ${host.modules.join(', ')}`);
		}

		let definition = loaded.get(module);
		if (definition === undefined) {
			definition = host.load(module);
			loaded.set(module, definition);
		}

		return definition;
	};
}

/**
 * Loads each module in turn, a macrotask apart, so a request that arrives
 * meanwhile is read and served between two of them. A module that fails to
 * load is reported by its first request, which retries nothing: the same
 * failed load answers it.
 */
function preload(modules: readonly string[], pick: Picker): void {
	const next = (index: number) => {
		const module = modules[index];
		if (module === undefined) return;
		pick({module}).then(
			() => setImmediate(next, index + 1),
			() => setImmediate(next, index + 1),
		);
	};

	setImmediate(next, 0);
}

interface ServeState {
	pick: Picker;
	fallbackPaths: PlatformDirs;
	contexts: ContextCache;
	reuse: ReuseReceiver;
	later: AfterAnswer;
}

/**
 * The request context, checked once: a host's workspace and folders are
 * fixed for a worker's life (spec/platform.md §2) and its skill and prompt folders
 * change only on a reload, so a frame repeating the last ones exactly is not
 * checked again (the check resolves real paths on disk).
 */
class ContextCache {
	#last: {key: string; context: ReturnType<typeof validateRequestContext>} | undefined;

	validate(frame: Record<string, unknown>): ReturnType<typeof validateRequestContext> {
		const key = JSON.stringify([frame.workspace, frame.workspace_id, frame.paths, frame.resources]);
		if (this.#last?.key === key) return this.#last.context;
		const context = validateRequestContext(frame);
		this.#last = {key, context};
		return context;
	}
}

async function respond(text: string, state: ServeState): Promise<Buffer> {
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
	let answer: {data: Record<string, unknown>; reuse?: Record<string, number>};
	let worker: WorkerDefinition | undefined;
	const warnings: string[] = [];
	try {
		// A host that sends `reuse` reads it back (prefix-reuse.ts); the data the handlers see is whole either way.
		const restored = Object.hasOwn(frame, 'reuse') && isRecord(frame.data) ? state.reuse.restore(frame.data, frame.reuse) : undefined;
		// An earlier answer's follow-up work failed: this request reports it (and the host stops the worker).
		const failure = state.later.takeFailure();
		if (failure !== undefined) throw new Error(failure);
		worker = await state.pick(frame);
		const data = await dispatch(worker, frame, state, warnings);
		answer = restored ? restored.answer(data) : {data};
	} catch (error) {
		return encodeFrame({id, error: errorMessage(error)});
	}

	try {
		return encodeFrame({id, ...answer, ...(warnings.length === 0 ? {} : {warnings})});
	} catch (error) {
		if (!(error instanceof FrameError)) throw error;
		return encodeFrame({id, error: `the ${worker!.name} worker's response is too large: ${error.message}`});
	}
}

async function dispatch(worker: WorkerDefinition, frame: Record<string, unknown>, state: ServeState, warnings: string[]): Promise<Record<string, unknown>> {
	const {event, data} = frame;
	if (typeof event !== 'string') throw new Error(`field "event" must be a string (got ${JSON.stringify(event)})`);
	if (!isRecord(data)) throw new Error('field "data" must be an object');
	const given = state.contexts.validate(frame);
	const context: WorkerContext = {
		workspace: given.workspace,
		workspace_id: given.workspace_id,
		paths: given.paths ?? state.fallbackPaths,
		resources: given.resources,
		afterAnswer: (task, options) => state.later.add(task, options),
		warn(message) {
			if (warnings.length === MAX_ANSWER_WARNINGS) throw new Error(`the ${worker.name} worker gave more than ${MAX_ANSWER_WARNINGS} warnings for one answer; tell the rest with a later one`);
			warnings.push(message);
		},
	};
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

/**
 * Hands `stream`'s chunks to `handle` one at a time, the stream paused
 * while one is handled; resolves at EOF. Plain 'data' events: the async
 * iterator of a stream costs a worker that sits idle between calls more
 * on each wake-up.
 */
async function eachChunk(stream: FrameInput, handle: (chunk: Buffer) => Promise<void>): Promise<void> {
	return new Promise((resolve, reject) => {
		// The chunk being handled: EOF can come while it is (stdin closed right after a frame), and its answer is still owed.
		let handling: Promise<void> = Promise.resolve();
		stream.on('data', (chunk: Buffer) => {
			stream.pause();
			handling = handle(chunk).then(
				() => {
					stream.resume();
				},
				(error: unknown) => {
					stream.destroy();
					reject(error as Error);
				},
			);
		});
		stream.once('end', () => {
			// handling never rejects: a failed chunk has already rejected the whole promise above.
			void handling.then(() => resolve());
		});
		stream.once('error', reject);
	});
}

function writeFrame(output: FrameOutput, frame: Buffer): Promise<void> {
	return new Promise((resolve, reject) => {
		output.write(frame, error => (error ? reject(new StdoutError(`cannot write to stdout (${errorMessage(error)})`)) : resolve()));
	});
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}
