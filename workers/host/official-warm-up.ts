import {closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {PassThrough, Writable} from 'node:stream';
import {FrameDecoder} from '../../source/core/pool/frames.js';
import {FdInput, FdOutput} from '../serve/fd-io.js';
import {officialHost} from './official.js';
import {serve} from '../serve/serve.js';

/** A made-up workspace ID for the sample turn's frames. */
const SAMPLE_WORKSPACE_ID = '00000000-0000-4000-8000-000000000000';

/** The host's answer frames, as far as the warm-up reads them. */
interface Answer {
	id: number;
	error?: unknown;
	data?: Record<string, unknown>;
}

/**
 * Serves a sample turn of the default profile (system_prompt and
 * user_input for prompts, before_turn for memory and skills,
 * context_budget, before_request and after_response for the cache) through
 * `serve`, in frames as the core sends them, twice, each time to a fresh
 * host in the same temp folder (removed afterwards): the second finds what
 * the first left there (the cache statistics), as a one-shot's host finds
 * the last run's. Run while the host's start-up snapshot is built
 * (official-snapshot.ts), so the snapshot holds what a first turn would
 * otherwise compile and set up in every process: the handlers' code, zod's
 * prepared schemas. Resolves with the error answers, if any: none is
 * expected, and a test says so. The module definitions it makes are its
 * own; a process from the snapshot makes fresh ones at its first requests.
 */
export async function warmUp(): Promise<string[]> {
	const root = mkdtempSync(join(tmpdir(), 'i-host-warm-up-'));
	try {
		const workspace = join(root, 'workspace');
		mkdirSync(workspace);
		const paths = {config_dir: join(root, 'config'), data_dir: join(root, 'data'), cache_dir: join(root, 'cache'), runtime_dir: join(root, 'runtime')};
		// With a context budget in the model config and without (the default): each takes its own paths.
		const first = await serveSampleTurn(workspace, paths, {window: 100_000});
		return [...first, ...(await serveSampleTurn(workspace, paths, null))];
	} finally {
		rmSync(root, {recursive: true, force: true});
	}
}

/** One sample turn to a fresh host until EOF; the error answers. */
async function serveSampleTurn(workspace: string, paths: Record<string, string>, budget: {window: number} | null): Promise<string[]> {
	const input = new PassThrough();
	const decoder = new FrameDecoder();
	const answers: Answer[] = [];
	let answered: (() => void) | undefined;
	const output = new Writable({
		write(chunk: Buffer, _encoding, done) {
			for (const text of decoder.push(chunk)) answers.push(JSON.parse(text) as Answer);
			answered?.();
			done();
		},
	});
	const served = serve(officialHost(), {input, output});
	let id = 0;
	const ask = async (module: string, event: string, data: Record<string, unknown>, reuse: Record<string, number>): Promise<Answer> => {
		const wanted = ++id;
		input.write(`${JSON.stringify({id: wanted, event, module, workspace, workspace_id: SAMPLE_WORKSPACE_ID, paths, data, reuse})}\n`);
		while (!answers.some(answer => answer.id === wanted)) await new Promise<void>(resolve => (answered = resolve));
		return answers.find(answer => answer.id === wanted)!;
	};

	const system = {role: 'system', content: 'You are i, a coding agent.'};
	const messages = [system, {role: 'user', content: 'Say hello'}];
	const tool = {name: 'read', description: 'Read files.', parameters: {type: 'object', properties: {path: {type: 'string'}}, required: ['path'], additionalProperties: false}};
	await ask('prompts', 'system_prompt', {prompt: system.content, workspace}, {});
	await ask('prompts', 'user_input', {content: 'Say hello'}, {});
	await ask('memory', 'before_turn', {messages}, {'/messages': 0});
	await ask('skills', 'before_turn', {messages}, {'/messages': 0});
	const history = {model: 'm', protocol: 'openai', budget, max_tokens: null, history: messages, tools: [tool], pending: 0, compact: true, last_usage: null};
	await ask('budget', 'context_budget', history, {'/history': 0, '/tools': 0});
	const body = {model: 'm', messages, stream: true, tools: [{type: 'function', function: tool}]};
	const prepared = await ask('cache', 'before_request', {url: 'http://127.0.0.1:9/v1/chat/completions', body, protocol: 'openai', model: 'm', budget: null}, {'/body/messages': 0, '/body/tools': 0});
	const usage = {prompt_tokens: 20, completion_tokens: 3, total_tokens: 23, prompt_tokens_details: {cached_tokens: 0}};
	const response = {protocol: 'openai', model: 'm', message: {role: 'assistant', content: 'Hello!'}, finish_reason: 'stop', usage};
	await ask('cache', 'after_response', {response, request_meta: prepared.data?.request_meta ?? {}}, {});
	input.end();
	await served;
	return answers.filter(answer => typeof answer.error === 'string').map(answer => `request ${answer.id}: ${answer.error}`);
}

/**
 * Reads a sample frame from a file descriptor and writes one to another, as
 * a host reads its stdin and writes its stdout (fd-io.ts), so the snapshot
 * holds that code compiled too; the sample turns go through streams. Run
 * after the flush (official-snapshot.ts): 0.2–0.3 ms of every host's first
 * frame compiled this before. The descriptors are temp files, closed and
 * removed before the snapshot is taken. Resolves with what was written.
 */
export async function warmFdIo(): Promise<string> {
	const root = mkdtempSync(join(tmpdir(), 'i-host-fd-warm-up-'));
	const frame = Buffer.from('{"id":1,"data":{}}\n');
	let input: number | undefined;
	let output: number | undefined;
	try {
		writeFileSync(join(root, 'in'), frame);
		input = openSync(join(root, 'in'), 'r');
		output = openSync(join(root, 'out'), 'w');
		const reader = new FdInput(input, () => {
			throw new Error('a file never blocks');
		});
		const writer = new FdOutput(output, () => {
			throw new Error('a file never blocks');
		});
		await new Promise<void>((resolve, reject) => {
			reader.on('data', (chunk: Buffer) => {
				reader.pause();
				writer.write(chunk, error => (error ? reject(error) : reader.resume()));
			});
			reader.once('end', resolve);
			reader.once('error', reject);
		});
		return readFileSync(join(root, 'out'), 'utf8');
	} finally {
		if (input !== undefined) closeSync(input);
		if (output !== undefined) closeSync(output);
		rmSync(root, {recursive: true, force: true});
	}
}
