// An extension provider as a ModelCaller (spec/extensions.md §5): registration
// rules at each limit and one past, frames to live events, the one terminal,
// cancellation and its control plane, idle limits, and the final message
// checked.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {checkProvider, MAX_API_STYLE_LENGTH, MAX_PROVIDER_ID_LENGTH} from '../../source/core/extensions/check-provider.js';
import {createExtensionProviderCaller, providerUrl, type OwnedProvider} from '../../source/core/extensions/extension-provider.js';
import {MAX_PROVIDER_DELTA_CHARS, PROVIDER_FIRST_FRAME_MS, PROVIDER_ONE_SHOT_MS, PROVIDER_SILENCE_MS, type RunLimits} from '../../source/core/extensions/provider-run.js';
import {BODY_TIMEOUT_MS, HEADERS_TIMEOUT_MS, MAX_BODY_BYTES} from '../../source/core/providers/http-limits.js';
import {PROVIDER_CALL_TIMEOUT_MS} from '../../source/core/providers/worker-provider.js';
import {loadExtensions} from '../../source/core/extensions/load-extensions.js';
import {ProviderError} from '../../source/core/providers/errors.js';
import type {StreamEvent} from '../../source/core/providers/types.js';
import type {ProviderControl, ProviderRequest} from '../../source/core/extensions/api.js';

const request = () => undefined;

test('registration: the id at 64 characters and one past, its alphabet, the built-in names; baseUrl, apiStyle and request', () => {
	const ok = (fields: Record<string, unknown>) => checkProvider({id: 'p', apiStyle: 'openai-completions', request, ...fields}, true);
	assert.equal(ok({id: 'a'.repeat(MAX_PROVIDER_ID_LENGTH)}).id.length, 64);
	assert.throws(() => ok({id: 'a'.repeat(MAX_PROVIDER_ID_LENGTH + 1)}), /registerStreamingProvider: id must be 1–64 of lower-case a-z, 0-9, "\.", "_" or "-", starting with a letter or digit/);
	for (const id of ['', 'Upper', '.dot', '-dash', 'with space', 'slash/x', 7]) assert.throws(() => ok({id}), /id must be/, String(id));
	assert.equal(ok({id: 'my.local_llm-2'}).id, 'my.local_llm-2');
	for (const id of ['openai', 'anthropic', 'responses']) assert.throws(() => ok({id}), new RegExp(`"${id}": id is a built-in provider's \\(openai, anthropic, responses\\)`));
	// The provider package's id: the config's protocol "deepseek" still names the built-in wire, its provider "deepseek" this one.
	assert.equal(ok({id: 'deepseek'}).id, 'deepseek');
	assert.equal(ok({baseUrl: 'https://example.test/v1'}).baseUrl, 'https://example.test/v1');
	assert.equal(ok({}).baseUrl, undefined);
	assert.throws(() => ok({baseUrl: 'ftp://example.test'}), /baseUrl must be an http:\/\/ or https:\/\/ URL, or absent/);
	assert.throws(() => ok({baseUrl: 'not a url'}), /baseUrl must be an http/);
	assert.throws(() => ok({baseUrl: 'https://user:pw@example.test'}), /baseUrl may not hold a user name or password/);
	assert.equal(ok({apiStyle: 'x'.repeat(MAX_API_STYLE_LENGTH)}).apiStyle.length, 64);
	assert.throws(() => ok({apiStyle: 'x'.repeat(MAX_API_STYLE_LENGTH + 1)}), /apiStyle must be 1–64 printable ASCII characters/);
	assert.throws(() => ok({apiStyle: ''}), /apiStyle must be/);
	assert.throws(() => ok({apiStyle: 'two words'}), /apiStyle must be/);
	assert.throws(() => ok({request: 'fn'}), /"p": request must be a function \(req, \{emit, control, signal\}\) => message/);
	assert.throws(() => checkProvider({id: 'p', apiStyle: 's', request: null}, false), /registerProvider "p": request must be a function \(req, \{signal\}\)/);
	assert.throws(() => checkProvider(null, false), /registerProvider takes an object/);
});

function folder(): {dir: string; write(name: string, source: string): string; close(): void} {
	const dir = mkdtempSync(join(tmpdir(), 'i-providers-'));
	return {
		dir,
		write(name, source) {
			const path = join(dir, `${name}.mjs`);
			writeFileSync(path, source);
			return path;
		},
		close: () => rmSync(dir, {recursive: true, force: true}),
	};
}

const candidate = (path: string) => ({path, origin: 'flag' as const, project: false, listedIn: '--extension'});

test('streaming after one-shot of the same id replaces it in place; twice the same kind, or one-shot after streaming, is a load error; the id of another extension is not taken, said naming both, and the rest loads', async () => {
	const files = folder();
	try {
		const replacing = files.write(
			'replacing',
			`export default api => {
				api.registerProvider({id: 'first', apiStyle: 's', request: () => ({role: 'assistant', content: 'one'})});
				api.registerProvider({id: 'second', apiStyle: 's', request: () => ({role: 'assistant', content: 'two'})});
				api.registerStreamingProvider({id: 'first', apiStyle: 'streamed', request: () => ({role: 'assistant', content: 'three'})});
			}`,
		);
		const twice = files.write('twice', `export default api => { api.registerProvider({id: 'again', apiStyle: 's', request() {}}); api.registerProvider({id: 'again', apiStyle: 's', request() {}}); }`);
		const downgrade = files.write(
			'downgrade',
			`export default api => { api.registerStreamingProvider({id: 'down', apiStyle: 's', request() {}}); api.registerProvider({id: 'down', apiStyle: 's', request() {}}); }`,
		);
		const clash = files.write(
			'clash',
			`export default api => { api.registerStreamingProvider({id: 'second', apiStyle: 's', request() {}}); api.registerStreamingProvider({id: 'own', apiStyle: 's', request() {}}); }`,
		);
		const {extensions, reports} = await loadExtensions({candidates: [replacing, twice, downgrade, clash].map(candidate), trusted: false, takenToolNames: new Map()});
		assert.deepEqual(
			extensions.map(extension => extension.name),
			['replacing', 'clash'],
		);
		assert.deepEqual(
			extensions[0]!.providers.map(provider => [provider.id, provider.apiStyle, provider.streaming]),
			[
				['first', 'streamed', true],
				['second', 's', false],
			],
		);
		const messages = reports.map(report => (report.kind === 'failed' ? report.message : report.kind));
		assert.match(messages[0]!, /registerProvider: extension twice registered the provider "again" already \(one-shot\); only a streaming registration after a one-shot one replaces it/);
		assert.match(messages[1]!, /registerProvider: extension downgrade registered the provider "down" already \(streaming\)/);
		assert.equal(messages.length, 2);
		// The first registration of an id wins (spec/extensions.md §11): the later one is said, naming both, and its other providers count.
		assert.deepEqual(
			extensions[1]!.providers.map(provider => provider.id),
			['own'],
		);
		assert.match(extensions[1]!.notices[0]!, /^extension clash: its provider "second" is not used: extension replacing \(\S+replacing\.mjs\) registered that id first/);
	} finally {
		files.close();
	}
});

test('the idle limits are the HTTP layer’s; a one-shot provider gets a provider worker’s call time', () => {
	assert.equal(PROVIDER_FIRST_FRAME_MS, HEADERS_TIMEOUT_MS);
	assert.equal(PROVIDER_SILENCE_MS, BODY_TIMEOUT_MS);
	assert.equal(PROVIDER_ONE_SHOT_MS, PROVIDER_CALL_TIMEOUT_MS);
	assert.equal(MAX_PROVIDER_DELTA_CHARS, MAX_BODY_BYTES);
});

test('the deltas of one request: at the limit they are shown, one character past it the request fails and the extension is told to stop', async () => {
	const limits: RunLimits = {firstFrameMs: 1000, silenceMs: 1000, oneShotMs: 1000, deltaChars: 10};
	let past: boolean | undefined;
	let control: ProviderControl | undefined;
	const atLimit = caller(
		(_req, io) => {
			io.emit({type: 'text_delta', contentIndex: 0, delta: '12345'});
			io.emit({type: 'thinking_delta', contentIndex: 1, delta: '67890'});
			return {role: 'assistant', content: '12345'};
		},
		{limits},
	);
	assert.equal((await atLimit.send(atLimit.prepare(messages, tools), io().io)).message.content, '12345');
	const over = caller(
		(_req, io) => {
			control = io.control;
			io.emit({type: 'text_delta', contentIndex: 0, delta: '1234567890'});
			past = io.emit({type: 'text_delta', contentIndex: 0, delta: '1'});
			return new Promise(() => {});
		},
		{limits},
	);
	const {io: sendIo, events} = io();
	await assert.rejects(
		over.send(over.prepare(messages, tools), sendIo),
		(error: ProviderError) => error.kind === 'stream' && /the reply's deltas passed 10 characters$/.test(error.message) && error.partialText === '1234567890',
	);
	assert.equal(past, false);
	assert.equal(control!.isCancelled(0), true);
	assert.deepEqual(events, [{type: 'text_delta', text: '1234567890'}]);
});

type Request = (req: ProviderRequest, io: any) => unknown;

function caller(requestFn: Request, options: {streaming?: boolean; limits?: RunLimits; maxTokens?: number} = {}) {
	const owned: OwnedProvider = {extension: 'ext', provider: {id: 'loc', baseUrl: undefined, apiStyle: 's', streaming: options.streaming ?? true, request: requestFn as never}};
	return createExtensionProviderCaller(owned, {model: 'm1', extraBody: {temperature: 0.5}, ...(options.maxTokens ? {maxTokens: options.maxTokens} : {}), ...(options.limits ? {limits: options.limits} : {})});
}

function io(controller = new AbortController()) {
	const events: StreamEvent[] = [];
	const warnings: string[] = [];
	return {
		events,
		warnings,
		controller,
		io: {signal: controller.signal, emit: (event: StreamEvent) => void events.push(event), warn: (message: string) => void warnings.push(message), onRetry: async () => {}},
	};
}

const messages = [{role: 'user' as const, content: 'hi'}];
const tools = [{name: 't', description: 'd', parameters: {type: 'object'}}];

test('req is read from the prepared body, a copy: a hook’s change counts, the extension’s mutation does not reach the body; the body keeps extra fields', async () => {
	let seen: ProviderRequest | undefined;
	const provider = caller(
		req => {
			seen = structuredClone(req);
			(req.messages as any[]).push({role: 'user', content: 'mutated'});
			return {role: 'assistant', content: 'ok'};
		},
		{maxTokens: 99},
	);
	const prepared = provider.prepare(messages, tools);
	assert.equal(prepared.url, providerUrl('loc'));
	assert.deepEqual(prepared.body, {temperature: 0.5, model: 'm1', messages, tools, max_tokens: 99});
	const body = {...prepared.body, hooked: 1};
	const {io: sendIo, events} = io();
	const reply = await provider.send({url: prepared.url, body}, sendIo);
	// Selected by `protocol`, with no catalogue binding: no key, no endpoint, no headers.
	assert.deepEqual(seen, {model: 'm1', messages, tools, maxTokens: 99, extra: {temperature: 0.5, hooked: 1}, apiKey: null, baseUrl: null, headers: {}});
	assert.equal((body.messages as unknown[]).length, 1);
	assert.deepEqual(reply, {message: {role: 'assistant', content: 'ok'}, finishReason: 'stop', rawFinishReason: null, usage: null});
	assert.deepEqual(events, [{type: 'text_delta', text: 'ok'}]);
	await assert.rejects(provider.send({url: 'extension://other', body}, sendIo), /extension ext provider "loc": the request was moved to "extension:\/\/other"/);
	await assert.rejects(provider.send({url: prepared.url, body: {...body, messages: 'x'}}, sendIo), /the request body's "messages" is not a list of messages/);
	await assert.rejects(provider.send({url: prepared.url, body: {...body, model: ''}}, sendIo), /the request body's "model" is not a model name/);
	await assert.rejects(provider.send({url: prepared.url, body: {...body, tools: {}}}, sendIo), /the request body's "tools" is not a list of tools/);
	await assert.rejects(provider.send({url: prepared.url, body: {...body, max_tokens: 0}}, sendIo), /the request body's "max_tokens" is not a positive integer/);
	await assert.rejects(provider.send({url: prepared.url, body: {...body, max_tokens: 1.5}}, sendIo), /the request body's "max_tokens" is not a positive integer/);
	await assert.rejects(provider.send({url: prepared.url, body: {...body, hooked: () => 1}}, sendIo), /the request cannot be copied/);
	await assert.rejects(provider.send(prepared, {...sendIo, wire: 'responses'}), /asked for the "responses" wire/);
});

test('frames become live events at once; unknown types are ignored; malformed frames warn once a request; the last usage frame counts; the final message is authoritative and its unshown rest is shown', async () => {
	const returned: boolean[] = [];
	let emitted: StreamEvent[] = [];
	const {io: sendIo, events, warnings} = io();
	const provider = caller((_req, {emit}) => {
		returned.push(emit({type: 'start'}), emit({type: 'thinking_delta', contentIndex: 0, delta: 'hmm'}), emit({type: 'text_start', contentIndex: 1}), emit({type: 'text_delta', contentIndex: 1, delta: 'Hel'}));
		emitted = [...events];
		returned.push(
			emit({type: 'future_frame', whatever: 1}),
			emit({type: 'text_delta', contentIndex: -1, delta: 'bad'}),
			emit({type: 'text_delta', contentIndex: 1}),
			emit('junk' as never),
			emit({type: 'usage', usage: {input: 1, output: 1}}),
			emit({type: 'usage', usage: {input: 10, output: 4, cacheRead: 2}}),
			emit({type: 'toolcall_start', contentIndex: 2, id: 'c1', name: 'read'}),
			emit({type: 'toolcall_delta', contentIndex: 2, delta: '{}'}),
			emit({type: 'text_end', contentIndex: 1}),
		);
		return {role: 'assistant', content: 'Hello', tool_calls: [{id: 'c1', type: 'function', function: {name: 'read', arguments: '{}'}}], reasoning_content: 'hmm'};
	});
	const reply = await provider.send(provider.prepare(messages, tools), sendIo);
	assert.deepEqual(emitted, [
		{type: 'thinking_delta', text: 'hmm'},
		{type: 'text_delta', text: 'Hel'},
	]);
	assert.ok(returned.every(Boolean), 'every frame of an open request is acknowledged');
	assert.deepEqual(events.at(-1), {type: 'text_delta', text: 'lo'});
	assert.equal(events.length, 3);
	assert.equal(warnings.length, 1);
	assert.match(warnings[0]!, /^extension ext provider "loc": ignored a "text_delta" frame with a bad contentIndex .*; later malformed frames of this request are ignored without a word$/);
	assert.deepEqual(reply.message, {role: 'assistant', content: 'Hello', tool_calls: [{id: 'c1', type: 'function', function: {name: 'read', arguments: '{}'}}], reasoning_content: 'hmm'});
	assert.equal(reply.finishReason, 'tool_calls');
	assert.deepEqual([reply.usage?.input, reply.usage?.output, reply.usage?.cacheRead, reply.usage?.cacheWrite], [10, 4, 2, 0]);
	// A final message that is not a continuation of what was shown adds nothing to the screen; the session keeps the final one.
	const {io: other, events: otherEvents} = io();
	const diverging = caller((_req, {emit}) => {
		emit({type: 'text_delta', contentIndex: 0, delta: 'draft'});
		return {role: 'assistant', content: 'final', finish_reason: 'length', usage: {input: 3, output: 2}};
	});
	const second = await diverging.send(diverging.prepare(messages, tools), other);
	assert.deepEqual(otherEvents, [{type: 'text_delta', text: 'draft'}]);
	assert.deepEqual([second.message.content, second.finishReason, second.usage?.input], ['final', 'length', 3]);
});

test('a bad final message, a throw, a rejection and an error with a status are provider errors naming the extension and the id', async () => {
	const send = async (requestFn: Request, streaming = true) => {
		const provider = caller(requestFn, {streaming});
		return provider.send(provider.prepare(messages, tools), io().io);
	};

	await assert.rejects(
		send(() => ({role: 'user', content: 'x'})),
		(error: ProviderError) => {
			assert.match(
				error.message,
				/^extension ext provider "loc": request resolved with something that is not an assistant message \(role: .*\); it must resolve with \{role: 'assistant', content, tool_calls\?\}$/,
			);
			assert.equal(error.kind, 'stream');
			return true;
		},
	);
	await assert.rejects(
		send(() => ({role: 'assistant', content: 'x', tool_calls: [{id: 'c', type: 'function', function: {name: 'n'}}]})),
		/tool_calls\.0\.function\.arguments/,
	);
	await assert.rejects(
		send(() => 'text'),
		/not an assistant message \(the value: /,
	);
	await assert.rejects(
		send(() => {
			throw new Error('socket hang up');
		}),
		(error: ProviderError) => error.message === 'extension ext provider "loc": request failed: socket hang up' && error.kind === 'network',
	);
	await assert.rejects(
		send(async () => Promise.reject(Object.assign(new Error('HTTP 401 from http://x/v1: no key'), {status: 401})), false),
		(error: ProviderError) => error.kind === 'http' && error.status === 401 && /request failed: HTTP 401/.test(error.message),
	);
});

test('cancel before the stream ends: the aborted terminal at once with the partial text and the usage; emit refuses content after, acknowledges structural frames, shows nothing; the late success is ignored', async () => {
	const {io: sendIo, events, controller} = io();
	let late: (() => void) | undefined;
	let control: ProviderControl | undefined;
	let signal: AbortSignal | undefined;
	const after: boolean[] = [];
	let emitRef: ((frame: unknown) => boolean) | undefined;
	const provider = caller(
		(_req, io) =>
			new Promise(resolve => {
				({control, signal} = io);
				emitRef = io.emit;
				io.emit({type: 'usage', usage: {input: 5, output: 1}});
				io.emit({type: 'text_delta', contentIndex: 0, delta: 'part'});
				late = () => resolve({role: 'assistant', content: 'late'});
			}),
	);
	const sending = provider.send(provider.prepare(messages, tools), sendIo);
	await new Promise(resolve => setImmediate(resolve));
	assert.equal(control!.isCancelled(0), false);
	const waiting = control!.waitCancelled(60_000);
	controller.abort();
	await assert.rejects(sending, (error: ProviderError) => {
		assert.ok(error instanceof ProviderError);
		assert.equal(error.kind, 'aborted');
		assert.equal(error.partialText, 'part');
		assert.deepEqual([error.usage?.input, error.usage?.output], [5, 1]);
		assert.match(error.message, /^extension ext provider "loc": request cancelled$/);
		return true;
	});
	assert.equal(await waiting, true, 'a waiter wakes on the cancel');
	assert.equal(control!.isCancelled(0), true);
	assert.equal(control!.isCancelled(1), true);
	assert.equal(signal!.aborted, true);
	const started = Date.now();
	assert.equal(await control!.waitCancelled(60_000), true);
	assert.ok(Date.now() - started < 1000, 'already cancelled: waitCancelled returns at once');
	after.push(emitRef!({type: 'text_delta', contentIndex: 0, delta: 'more'}), emitRef!({type: 'text_end', contentIndex: 0}), emitRef!({type: 'usage', usage: {input: 9, output: 9}}));
	assert.deepEqual(after, [false, true, true]);
	late!();
	await new Promise(resolve => setImmediate(resolve));
	assert.deepEqual(events, [{type: 'text_delta', text: 'part'}]);
});

test('a request cancelled before it is sent never reaches the extension; a late rejection after a cancel is no unhandled rejection', async () => {
	let called = false;
	const aborted = new AbortController();
	aborted.abort();
	const first = caller(() => {
		called = true;
	});
	await assert.rejects(first.send(first.prepare(messages, tools), io(aborted).io), (error: ProviderError) => error.kind === 'aborted');
	assert.equal(called, false);
	const unhandled: unknown[] = [];
	const listener = (reason: unknown) => void unhandled.push(reason);
	process.on('unhandledRejection', listener);
	try {
		let reject: ((error: Error) => void) | undefined;
		const {io: sendIo, controller} = io();
		const provider = caller(async () => new Promise((_resolve, rejectFn) => (reject = rejectFn)));
		const sending = provider.send(provider.prepare(messages, tools), sendIo);
		await new Promise(resolve => setImmediate(resolve));
		controller.abort();
		await assert.rejects(sending, (error: ProviderError) => error.kind === 'aborted');
		reject!(new Error('the socket closed under it'));
		await new Promise(resolve => setTimeout(resolve, 20));
		assert.deepEqual(unhandled, []);
	} finally {
		process.off('unhandledRejection', listener);
	}
});

test('waitCancelled resolves false after its time, and false at once once the request ended; after the terminal, emit refuses everything', async () => {
	let control: ProviderControl | undefined;
	let emitRef: ((frame: unknown) => boolean) | undefined;
	let pending: Promise<boolean> | undefined;
	const provider = caller(async (_req, io) => {
		({control} = io);
		emitRef = io.emit;
		assert.equal(await io.control.waitCancelled(5), false);
		pending = io.control.waitCancelled(60_000);
		return {role: 'assistant', content: 'done'};
	});
	await provider.send(provider.prepare(messages, tools), io().io);
	assert.equal(await pending, false, 'the request ended: nothing will cancel it');
	assert.equal(await control!.waitCancelled(60_000), false);
	assert.equal(emitRef!({type: 'text_delta', contentIndex: 0, delta: 'after'}), false);
	assert.equal(emitRef!({type: 'text_end', contentIndex: 0}), false);
});

test('idle limits: no first frame, then silence, then a one-shot provider that does not answer; each ends the request and aborts the extension’s signal', async () => {
	const limits: RunLimits = {firstFrameMs: 30, silenceMs: 60, oneShotMs: 40, deltaChars: 100};
	let signal: AbortSignal | undefined;
	const silent = caller(
		async (_req, io) => {
			signal = io.signal;
			return new Promise(() => {});
		},
		{limits},
	);
	await assert.rejects(silent.send(silent.prepare(messages, tools), io().io), (error: ProviderError) => error.kind === 'network' && /the provider sent no frame within 30 ms$/.test(error.message));
	assert.equal(signal!.aborted, true);
	const stalls = caller(
		async (_req, io) => {
			io.emit({type: 'text_delta', contentIndex: 0, delta: 'so far'});
			return new Promise(() => {});
		},
		{limits},
	);
	await assert.rejects(stalls.send(stalls.prepare(messages, tools), io().io), (error: ProviderError) => /the stream went silent for 60 ms$/.test(error.message) && error.partialText === 'so far');
	const oneShot = caller(async () => new Promise(() => {}), {streaming: false, limits});
	await assert.rejects(oneShot.send(oneShot.prepare(messages, tools), io().io), /the provider did not answer within 40 ms$/);
});

test('a one-shot provider gets {signal, fetch} only, and its whole answer is shown when it resolves', async () => {
	let given: Record<string, unknown> | undefined;
	const provider = caller(
		(_req, io) => {
			given = io;
			return {role: 'assistant', content: 'whole', reasoning_content: 'thought', usage: {input: 2, output: 3}};
		},
		{streaming: false},
	);
	const {io: sendIo, events} = io();
	const reply = await provider.send(provider.prepare(messages, tools), sendIo);
	assert.deepEqual(Object.keys(given!), ['signal', 'fetch']);
	assert.deepEqual(events, [
		{type: 'thinking_delta', text: 'thought'},
		{type: 'text_delta', text: 'whole'},
	]);
	assert.equal(reply.usage?.output, 3);
});
