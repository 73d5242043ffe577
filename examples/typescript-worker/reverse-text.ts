/**
 * An `i` worker in TypeScript with one tool, `reverse_text`, using only
 * Node's built-in modules. It speaks the worker protocol (NDJSON over
 * stdin/stdout): one JSON request per line in, exactly one response per
 * request out, with the same `id`:
 *
 *   {"id":1,"event":"tool","workspace":"/project","data":{"name":"reverse_text","arguments":{"text":"abc"}}}
 *   {"id":1,"data":{"output":"cba"}}        or        {"id":1,"error":"what went wrong"}
 *
 * stdout carries frames only (diagnostics go to stderr), each frame is
 * written whole, and a frame is at most 48 MiB including its newline.
 */
import process from 'node:process';

const maxFrameBytes = 48 * 1024 * 1024;

type Tool = (args: unknown) => {output: string};

const tools: Record<string, Tool> = {
	reverse_text(args) {
		const text = (args as {text?: unknown} | null)?.text;
		if (typeof text !== 'string') throw new Error('reverse_text needs the argument "text" (a string)');
		// By grapheme, so accents and emoji with modifiers stay whole.
		const graphemes = [...new Intl.Segmenter(undefined, {granularity: 'grapheme'}).segment(text)].map(part => part.segment);
		return {output: graphemes.reverse().join('')};
	},
};

function handle(request: Record<string, unknown>): Record<string, unknown> {
	const {event, data} = request;
	if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new Error('"data" must be an object');
	const {name, arguments: args} = data as {name?: unknown; arguments?: unknown};
	// Hooks return the full data; an event this worker does not handle passes through.
	if (event !== 'tool') return data as Record<string, unknown>;
	const tool = typeof name === 'string' && Object.hasOwn(tools, name) ? tools[name] : undefined;
	if (!tool) throw new Error(`unknown tool ${JSON.stringify(name)}; this worker provides: ${Object.keys(tools).join(', ')}`);
	return tool(args);
}

/** A frame without a usable id cannot be answered: say why on stderr and stop. */
function fail(message: string): never {
	process.stderr.write(`reverse-text: ${message}\n`);
	process.exit(1);
}

function respond(line: Buffer): void {
	let request: unknown;
	try {
		request = JSON.parse(new TextDecoder('utf-8', {fatal: true}).decode(line));
	} catch (error) {
		fail(`a request frame is not valid UTF-8 JSON (${(error as Error).message})`);
	}

	const id = (request as {id?: unknown} | null)?.id;
	if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) fail('a request frame has no unsigned integer "id"');
	let response: Record<string, unknown>;
	try {
		response = {id, data: handle(request as Record<string, unknown>)};
	} catch (error) {
		response = {id, error: (error as Error).message};
	}

	let frame = Buffer.from(`${JSON.stringify(response)}\n`);
	if (frame.length > maxFrameBytes) frame = Buffer.from(`${JSON.stringify({id, error: 'the response is over the 48 MiB frame limit'})}\n`);
	process.stdout.write(frame);
}

// Split on "\n" only (never readline, which also splits on U+2028/U+2029); bytes
// are decoded per whole frame, so a character split across chunks stays intact.
let pending: Buffer[] = [];
let pendingBytes = 0;
process.stdin.on('data', (chunk: Buffer) => {
	let start = 0;
	for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
		if (pendingBytes + newline - start + 1 > maxFrameBytes) fail('a request frame is over the 48 MiB limit');
		respond(Buffer.concat([...pending, chunk.subarray(start, newline)]));
		pending = [];
		pendingBytes = 0;
		start = newline + 1;
	}

	if (start < chunk.length) {
		pendingBytes += chunk.length - start;
		if (pendingBytes + 1 > maxFrameBytes) fail('a request frame is over the 48 MiB limit');
		pending.push(chunk.subarray(start));
	}
});
process.stdin.on('end', () => {
	if (pendingBytes > 0) fail('stdin ended inside a frame');
});
