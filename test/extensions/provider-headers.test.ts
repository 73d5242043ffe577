// BeforeProviderHeaders (spec/extensions.md §5): what a handler's answer
// may change of a model request's headers, the limits on it, and the
// sender's own enforcement whatever a hook returns.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {EventBus} from '../../source/core/extensions/event-bus.js';
import {MAX_EXTENSION_HEADERS, MAX_HEADER_VALUE_CHARS, providerHeadersHook, readProviderHeaders, type ProviderHeadersEvent} from '../../source/core/extensions/provider-headers.js';
import {requestHeaders} from '../../source/core/providers/request-headers.js';

const event: ProviderHeadersEvent = {url: 'https://api.example/v1/chat/completions', protocol: 'openai', model: 'm', headers: {'content-type': 'application/json', accept: 'text/event-stream', 'x-kept': '1'}};

function read(answer: unknown) {
	const refused: string[] = [];
	const next = readProviderHeaders(answer, event, name => refused.push(name));
	return {next, refused};
}

test('an answer is the new set: added, changed and removed headers; nothing or {} leaves it', () => {
	assert.equal(read(undefined).next, undefined);
	assert.equal(read({}).next, undefined);
	const {next, refused} = read({headers: {'X-Trace': 'a', 'x-other': 'b'}});
	// Names in lower case; x-kept was left out, so it is gone; the HTTP layer's own came back.
	assert.deepEqual(next?.headers, {'x-trace': 'a', 'x-other': 'b', 'content-type': 'application/json', accept: 'text/event-stream'});
	assert.deepEqual(refused, []);
	assert.equal(next?.url, event.url);
});

test('credentials in any case are refused; a host header is refused only when changed', () => {
	const {next, refused} = read({headers: {'x-kept': '1', Authorization: 'Bearer x', 'X-API-Key': 'k', Cookie: 'a=b', 'proxy-authorization': 'p', 'content-type': 'text/plain', accept: 'text/event-stream'}});
	assert.deepEqual(refused, ['authorization', 'x-api-key', 'cookie', 'proxy-authorization', 'content-type']);
	assert.deepEqual(next?.headers, {'x-kept': '1', 'content-type': 'application/json', accept: 'text/event-stream'});
});

test('a malformed answer throws, naming the field', () => {
	assert.throws(() => read('x-trace: 1'), /an answer must be an object, not string/);
	assert.throws(() => read({headers: [['a', 'b']]}), /"headers" must be an object/);
	assert.throws(() => read({headers: {'bad name': 'x'}}), /"bad name" is not a header name/);
	assert.throws(() => read({headers: {'x-n': 1}}), /"headers.x-n" must be a string/);
	assert.throws(() => read({headers: {'x-split': 'a\r\nx-injected: 1'}}), /"headers.x-split" contains a line break/);
	assert.deepEqual(read({headers: {'x-tab': 'a\tb'}}).next?.headers['x-tab'], 'a\tb');
});

test(`at most ${MAX_EXTENSION_HEADERS} headers of at most ${MAX_HEADER_VALUE_CHARS} characters`, () => {
	const many = (count: number) => Object.fromEntries(Array.from({length: count}, (_, index) => [`x-h${index}`, 'v']));
	assert.equal(Object.keys(read({headers: many(MAX_EXTENSION_HEADERS)}).next!.headers).length, MAX_EXTENSION_HEADERS + 2);
	assert.throws(() => read({headers: many(MAX_EXTENSION_HEADERS + 1)}), /"headers" has 65 entries; at most 64/);
	assert.equal(read({headers: {'x-long': 'v'.repeat(MAX_HEADER_VALUE_CHARS)}}).next!.headers['x-long']!.length, MAX_HEADER_VALUE_CHARS);
	assert.throws(() => read({headers: {'x-long': 'v'.repeat(MAX_HEADER_VALUE_CHARS + 1)}}), /"headers.x-long" is over 8192 characters/);
});

test('the sender: the hook never sees the credentials and cannot replace them; what it returns past the rules is dropped', async () => {
	let shown: Record<string, string> | undefined;
	const sent = await requestHeaders({Authorization: 'Bearer sk-secret-key', 'anthropic-version': 'v1'}, 'https://api.example/x', async request => {
		shown = request.headers;
		return {...request.headers, authorization: 'Bearer other', 'content-length': '3', 'x-added': 'yes'};
	});
	assert.deepEqual(shown, {'content-type': 'application/json', accept: 'text/event-stream', 'anthropic-version': 'v1'});
	assert.deepEqual(sent, {'anthropic-version': 'v1', 'x-added': 'yes', 'content-type': 'application/json', accept: 'text/event-stream', authorization: 'Bearer sk-secret-key'});
	// Without a hook: the wire's headers and the adapter's, unchanged.
	assert.deepEqual(await requestHeaders({'x-api-key': 'k'}, 'https://api.example/x', undefined), {'content-type': 'application/json', accept: 'text/event-stream', 'x-api-key': 'k'});
});

test("the sender: a models.json header (named secret, any case) is kept from the hook like a credential, and keeps the host's value", async () => {
	let shown: Record<string, string> | undefined;
	const sent = await requestHeaders(
		{authorization: 'Bearer sk-secret-key', 'X-Team-Token': 'team-secret-value'},
		'https://api.example/x',
		async request => {
			shown = request.headers;
			return {...request.headers, 'x-team-token': 'replaced'};
		},
		['X-Team-Token'],
	);
	assert.deepEqual(shown, {'content-type': 'application/json', accept: 'text/event-stream'});
	assert.equal(sent['x-team-token'], 'team-secret-value');
});

test('chained in priority order, each handler seeing the one before; a refusal is reported once per extension and header', async () => {
	const reports: string[] = [];
	const events = new EventBus({
		handlers: [
			{extension: 'first', tag: 'BeforeProviderHeaders', handler: (given: any) => ({headers: {...given.headers, 'x-first': '1', cookie: 'c'}}), platforms: undefined},
			{extension: 'second', tag: 'BeforeProviderHeaders', handler: (given: any) => ({headers: {...given.headers, 'x-second': given.headers['x-first'] ?? 'missing'}}), platforms: undefined},
		],
		report: message => reports.push(message),
		platform: 'linux',
	});
	const hook = providerHeadersHook(events, {protocol: 'openai', model: 'm'})!;
	for (let request = 0; request < 3; request++) {
		const headers = await hook({url: 'https://api.example/x', headers: {'content-type': 'application/json', accept: 'text/event-stream'}});
		assert.deepEqual(headers, {'x-first': '1', 'x-second': '1', 'content-type': 'application/json', accept: 'text/event-stream'});
	}

	assert.deepEqual(reports, ["extension first: BeforeProviderHeaders cannot set cookie (credentials are the host's, never shown to an extension nor set by one); ignored"]);
	assert.equal(providerHeadersHook(null, {protocol: 'openai', model: 'm'}), undefined);
});
