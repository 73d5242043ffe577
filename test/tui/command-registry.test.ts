// The chat screen's slash commands as a registry (source/tui/commands/): its
// own commands one file each, the extensions' commands and the MCP servers'
// prompts joining and leaving, /help and the completion list showing exactly
// what it holds, and a submitted text parsed against it.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import type {Agent} from '../../source/core/session/agent.js';
import {ChatStore} from '../../source/tui/chat-store.js';
import {builtinCommands} from '../../source/tui/commands/builtin-commands.js';
import type {CommandContext} from '../../source/tui/commands/command-context.js';
import {CommandRegistry} from '../../source/tui/commands/command-registry.js';
import {externalCommands} from '../../source/tui/commands/external-commands.js';
import {MessageQueue} from '../../source/tui/message-queue.js';
import {ScreenExtensions} from '../../source/tui/screen-extensions.js';
import {slashCompletions} from '../../source/tui/slash-commands.js';

const prompt = {command: 'mcp__docs__greet', server: 'docs', prompt: 'greet', description: 'says hello', arguments: [{name: 'who', required: true}]};

/** An agent with what the registry reads: the extensions' commands and the MCP servers' prompts, both changeable. */
function fakeAgent() {
	const commands = new Map([['todo', {extension: 'todo-ext', description: 'a list', handler: () => 'ok'}]]);
	let prompts = [prompt];
	const agent = {
		extensionUi: {commands, markdownTransformers: [], messageRenderers: new Map(), entryRenderers: new Map()},
		mcp: {
			get servers() {
				return {prompts: () => prompts};
			},
		},
		extensionFiles: new Map(),
	};
	return {agent: agent as unknown as Agent, commands, dropPrompts: () => (prompts = [])};
}

/** A context whose parts record what the commands asked of them. */
function fakeContext(agent: Agent, registry: CommandRegistry) {
	const calls: string[] = [];
	const store = new ChatStore({model: 'm', workspace: '/w', session: null, usage: null, window: null}, {logo: false, frameMs: 0});
	const context: CommandContext = {
		agent,
		store,
		chooser: {ask: async () => null},
		turns: {
			start: text => void calls.push(`start ${text}`),
			runMcpPrompt: async (mcp, args) => void calls.push(`prompt ${mcp.command} ${args}`),
			runExtensionCommand: (name, command, args) => void calls.push(`extension ${name} (${command.extension}) ${args}`),
		},
		sessions: {
			clear: async () => void calls.push('clear'),
			resume: async atStart => void calls.push(`resume ${atStart}`),
			fork: async () => void calls.push('fork'),
			rename: async name => void calls.push(`rename ${name}`),
			readInstructions: async () => ({changed: false, instructions: {files: []}, notices: []}) as never,
		},
		extensions: {reload: async () => void calls.push('reload')},
		commands: registry,
		draft: {set: text => void calls.push(`draft ${text}`)},
		queue: new MessageQueue(),
		leave: () => void calls.push('leave'),
	};
	const notices = () => store.getSnapshot().finished.flatMap(item => (item.kind === 'notice' ? [`${item.level}: ${item.text}`] : []));
	return {context, calls, notices, store};
}

test('/help lists the keys, then exactly the commands the registry holds, in its order, the extensions with whose they are', async () => {
	const {agent} = fakeAgent();
	const registry = new CommandRegistry();
	registry.replaceAdded(externalCommands(agent));
	const {context, notices} = fakeContext(agent, registry);
	const help = registry.parse('/help');
	assert.ok(help && 'command' in help);
	await help.command.run(context, help.args);
	const lines = notices()[0]!
		.replace(/^info: /, '')
		.split('\n');
	const listed = lines.filter(line => line.startsWith('/')).map(line => line.split(/\s+/, 1)[0]);
	assert.deepEqual(
		listed,
		registry.all().map(command => command.name),
	);
	assert.deepEqual(listed.slice(0, builtinCommands.length), [
		'/help',
		'/clear',
		'/resume',
		'/fork',
		'/rewind',
		'/rename',
		'/session',
		'/provider',
		'/model',
		'/cost',
		'/diff',
		'/queue',
		'/permissions',
		'/theme',
		'/compact',
		'/reload',
		'/context',
		'/init',
		'/mcp',
		'/exit',
	]);
	assert.ok(lines.includes('/todo     a list (extension todo-ext)'), lines.join('\n'));
	assert.ok(lines.includes('/mcp__docs__greet says hello (MCP server docs)'), lines.join('\n'));
});

test('extension commands and MCP prompts join the registry, run what the agent holds under their name, and leave with it', async () => {
	const {agent, commands, dropPrompts} = fakeAgent();
	const registry = new CommandRegistry();
	assert.deepEqual(registry.parse('/todo add milk'), {unknown: '/todo'});
	registry.replaceAdded(externalCommands(agent));
	const {context, calls} = fakeContext(agent, registry);
	for (const text of ['/todo add milk', '/todo', '/mcp__docs__greet who=Ada']) {
		const parsed = registry.parse(text);
		assert.ok(parsed && 'command' in parsed, text);
		await parsed.command.run(context, parsed.args);
	}

	assert.deepEqual(calls, ['extension todo (todo-ext) add milk', 'extension todo (todo-ext) ', 'prompt mcp__docs__greet who=Ada']);
	assert.equal(registry.all().find(command => command.name === '/mcp__docs__greet')?.usage, '/mcp__docs__greet who=…');

	// The server stopped and the extension was reloaded without its command: both leave.
	commands.clear();
	dropPrompts();
	registry.replaceAdded(externalCommands(agent));
	assert.deepEqual(registry.added, []);
	assert.deepEqual(registry.parse('/todo add milk'), {unknown: '/todo'});
	assert.deepEqual(registry.parse('/mcp__docs__greet'), {unknown: '/mcp__docs__greet'});
});

test('the completion list and the store read the registry: what the extensions add is shown after the screen own commands', () => {
	const {agent} = fakeAgent();
	const registry = new CommandRegistry();
	const store = new ChatStore({model: 'm', workspace: '/w', session: null, usage: null, window: null}, {logo: false, frameMs: 0});
	const extensions = new ScreenExtensions({agent, store, registry, options: {dev: undefined, extensions: []}});
	extensions.show();
	assert.deepEqual(
		store.getSnapshot().commands.map(command => command.name),
		['/todo', '/mcp__docs__greet'],
	);
	assert.deepEqual(
		slashCompletions('/', store.getSnapshot().commands).map(command => command.name),
		registry.all().map(command => command.name),
	);
	assert.deepEqual(
		slashCompletions('/mc', store.getSnapshot().commands).map(command => command.name),
		['/mcp', '/mcp__docs__greet'],
	);
});

test('parse: the screen own commands with and without words, several lines, extension words, unknown names', () => {
	const {agent} = fakeAgent();
	const registry = new CommandRegistry();
	registry.replaceAdded(externalCommands(agent));
	const parsed = (text: string) => {
		const result = registry.parse(text);
		return result && 'command' in result ? {name: result.command.name, args: result.args} : result;
	};

	assert.deepEqual(parsed('/rename'), {name: '/rename', args: ''});
	assert.deepEqual(parsed('  /rename  notes-2 '), {name: '/rename', args: 'notes-2'});
	assert.deepEqual(parsed('/cost'), {name: '/cost', args: ''});
	// A command that takes no words is none with them; a message of several lines is a message.
	assert.deepEqual(parsed('/cost now'), {unknown: '/cost'});
	assert.equal(parsed('/cost\nand more'), null);
	assert.equal(parsed('/model a\nb'), null);
	// An extension's command takes any words, lines too.
	assert.deepEqual(parsed('/todo one\ntwo'), {name: '/todo', args: 'one\ntwo'});
	assert.deepEqual(parsed('/nothing here'), {unknown: '/nothing'});
	assert.equal(parsed('hello /help'), null);
});

test('the screen own commands keep their usage notices and reach the parts they act through', async () => {
	const {agent} = fakeAgent();
	const registry = new CommandRegistry();
	const {context, calls, notices} = fakeContext(agent, registry);
	const run = async (text: string) => {
		const parsed = registry.parse(text);
		assert.ok(parsed && 'command' in parsed, text);
		await parsed.command.run(context, parsed.args);
	};

	await run('/rename');
	await run('/rename notes');
	await run('/model a b');
	await run('/provider a b');
	await run('/provider remove');
	await run('/clear');
	await run('/resume');
	await run('/fork');
	await run('/init');
	await run('/exit');
	assert.deepEqual(notices(), [
		'warning: usage: /rename NAME (letters, digits, ".", "_" and "-")',
		'warning: usage: /model, /model ID (or PROVIDER/MODEL), /model ID --default or /model --default',
		'warning: usage: /provider, /provider ID, /provider ID --default, /provider --default or /provider remove ID',
		'warning: usage: /provider remove ID (a provider you added in models.json)',
	]);
	assert.equal(calls.length, 6);
	assert.deepEqual(calls.slice(0, 4), ['rename notes', 'clear', 'resume false', 'fork']);
	assert.match(calls[4]!, /^start Please study this project and write an AGENTS\.md file/);
	assert.equal(calls[5], 'leave');
});
