// The pure parts: a prompt command's arguments, `@server:uri` mentions, and
// a tool result's parts mapped to the core's result.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {parsePromptArguments, promptText, MAX_PROMPT_ARGUMENT_CHARS} from '../../source/core/mcp/mcp-prompt.js';
import {findResourceMentions} from '../../source/core/mcp/resource-mentions.js';
import {mapToolResult} from '../../source/core/mcp/mcp-result.js';
import {expandVariables} from '../../source/core/mcp/expand-variables.js';

const weather = {
	command: 'mcp__every__args-prompt',
	arguments: [
		{name: 'city', required: true, description: 'Name of the city'},
		{name: 'state', required: false},
	],
};

test('prompt arguments: NAME=VALUE, plain words in order, quotes; unknown, missing and surplus refused naming the arguments', () => {
	assert.deepEqual(parsePromptArguments('city=Paris', weather), {city: 'Paris'});
	assert.deepEqual(parsePromptArguments('Paris Texas', weather), {city: 'Paris', state: 'Texas'});
	assert.deepEqual(parsePromptArguments('state="New York" "New York City"', weather), {city: 'New York City', state: 'New York'});
	assert.deepEqual(parsePromptArguments('city=\'a "b"\' state=x=y', weather), {city: 'a "b"', state: 'x=y'});
	assert.deepEqual(parsePromptArguments('city="say \\"hi\\""', weather), {city: 'say "hi"'});
	assert.deepEqual(parsePromptArguments('city=', weather), {city: ''});
	assert.throws(() => parsePromptArguments('', weather), /\/mcp__every__args-prompt needs city \(\/mcp__every__args-prompt city=… \[state=…\]\)/);
	assert.throws(() => parsePromptArguments('town=Paris', weather), /has no argument "town"; it takes: city: Name of the city; state \(optional\)/);
	assert.throws(() => parsePromptArguments('a b c', weather), /takes 2: .*got more words than that/);
	assert.throws(() => parsePromptArguments('city="Paris', weather), /a double quote is not closed/);
	assert.throws(() => parsePromptArguments('x', {command: 'p', arguments: []}), /\/p takes no arguments/);
	assert.deepEqual(parsePromptArguments('', {command: 'p', arguments: []}), {});
	assert.deepEqual(Object.keys(parsePromptArguments(`city=${'x'.repeat(MAX_PROMPT_ARGUMENT_CHARS - 5)}`, weather)), ['city']);
	assert.throws(() => parsePromptArguments(`city=${'x'.repeat(MAX_PROMPT_ARGUMENT_CHARS - 4)}`, weather), /over 65536 characters/);
});

test("a prompt's messages as one turn's text", () => {
	assert.equal(promptText({messages: [{role: 'user', content: {type: 'text', text: 'just this'}}]}), 'just this');
	assert.equal(
		promptText({
			messages: [
				{role: 'user', content: {type: 'text', text: 'q'}},
				{role: 'assistant', content: {type: 'text', text: 'a'}},
				{role: 'user', content: {type: 'resource', resource: {uri: 'demo://x', text: 'body'}}},
			],
		}),
		'User: q\n\nAssistant: a\n\nUser: Resource demo://x:\nbody',
	);
});

test('@server:uri mentions: only configured servers, at a word start, sentence punctuation left out, each once', () => {
	const text = 'see @docs:file:///a.md, and (@docs:file:///b.md) @other:x me@docs:y @docs:file:///a.md\n@docs:demo://z.';
	assert.deepEqual(
		findResourceMentions(text, ['docs']).map(mention => [mention.uri, mention.text]),
		[
			['file:///a.md', '@docs:file:///a.md'],
			['demo://z', '@docs:demo://z'],
		],
	);
	assert.deepEqual(findResourceMentions('@src/app.ts is a file', ['src']), []);
});

test('tool results: text, images by type, resources, links, audio, structuredContent, isError', () => {
	const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).toString('base64');
	const result = mapToolResult({
		content: [
			{type: 'text', text: 'first'},
			{type: 'image', mimeType: 'image/png', data: png},
			{type: 'image', mimeType: 'image/bmp', data: 'AAAA'},
			{type: 'audio', mimeType: 'audio/wav', data: 'AAAA'},
			{type: 'resource', resource: {uri: 'demo://t', text: 'inner'}},
			{type: 'resource', resource: {uri: 'demo://b', blob: 'AAAA', mimeType: 'application/zip'}},
			{type: 'resource_link', uri: 'demo://l', name: 'link'},
		],
	});
	assert.equal(
		result.output,
		[
			'first',
			'[image of type image/bmp, 3 bytes: a type the model is not sent]',
			'[audio of type audio/wav, 3 bytes: not sent to the model]',
			'Resource demo://t:\ninner',
			'Resource demo://b: application/zip, 3 bytes',
			'Resource link demo://l (link)',
		].join('\n'),
	);
	assert.deepEqual(result.images, [{type: 'image_url', image_url: {url: `data:image/png;base64,${png}`}}]);
	assert.equal(mapToolResult({content: [], structuredContent: {a: 1}}).output, '{\n  "a": 1\n}');
	assert.deepEqual(mapToolResult({content: [{type: 'text', text: 'nope'}], isError: true}), {output: 'Error: nope', isError: true});
	assert.deepEqual(mapToolResult({content: [], isError: true}), {output: 'Error: the server reported an error without a message', isError: true});
});

test('VAR expansion: set, unset with a fallback, unset without one, and an empty value counting as unset', () => {
	// biome-ignore lint/suspicious/noTemplateCurlyInString: the MCP configuration's own ${VAR} syntax
	assert.equal(expandVariables('a${A}b${B:-dflt}c$NOT{x}', {A: '1'}, 'here'), 'a1bdfltc$NOT{x}');
	// biome-ignore lint/suspicious/noTemplateCurlyInString: the MCP configuration's own ${VAR} syntax
	assert.throws(() => expandVariables('${EMPTY}', {EMPTY: ''}, 'file: MCP server "s", env.X'), /^UsageError: file: MCP server "s", env.X: the environment variable EMPTY is not set/);
});
