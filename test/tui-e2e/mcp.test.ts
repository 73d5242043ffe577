// MCP servers in the chat screen, in a real pseudo-terminal: a turn where the
// model lists and reads a file through @modelcontextprotocol/server-filesystem
// on a temp folder, with the approval asked and given; an image result under
// alwaysAllow; /mcp, a prompt as a slash command, a child agent given an
// MCP tool, and /mcp reconnect.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {fileURLToPath} from 'node:url';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {TYPEAHEAD_GUARD_MS} from '../../components/Approval.js';
import {makeSandbox, waitFor, type Sandbox} from '../helpers/cli.js';
import {recordBrowser, startOAuthServer} from '../helpers/oauth-server.js';
import {lastUserText, startChat, toolResults} from './chat.js';

const filesystemServer = fileURLToPath(new URL('../../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', import.meta.url));
const everythingServer = fileURLToPath(new URL('../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/** /mcp until it shows the server ready: it says each server's state when asked, and servers start behind the first frame. */
async function waitForServer(run: Awaited<ReturnType<typeof startChat>>['run'], name: string): Promise<void> {
	const ready = new RegExp(`${name}: ready \\(stdio\\)`);
	for (let attempt = 0; attempt < 40; attempt++) {
		run.type('/mcp\r');
		try {
			await run.waitFor(screen => ready.test(screen), `${name} ready in /mcp`, {timeoutMs: 500});
			return;
		} catch {
			// Still starting: ask again.
		}
	}

	throw new Error(`MCP server ${name} did not become ready:\n${run.screen().join('\n')}`);
}

function withServers(servers: Record<string, unknown>): Sandbox {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'settings.json'), JSON.stringify({mcpServers: servers}));
	return box;
}

// "roots": false: the shared folder is outside the workspace, and server-filesystem would replace the folders of its command line with the workspace root.
test('the model lists and reads a file through server-filesystem, each call approved in the screen', async () => {
	const box = makeSandbox();
	const shared = join(box.root, 'shared');
	mkdirSync(shared);
	writeFileSync(join(shared, 'plan.txt'), 'step one: write the MCP client\n');
	writeFileSync(join(box.configDir, 'settings.json'), JSON.stringify({mcpServers: {fs: {command: process.execPath, args: [filesystemServer, shared], roots: false}}}));
	const {run} = await startChat(mock, {box});
	try {
		await waitForServer(run, 'fs');
		const sent = mock.requests.length;
		mock.enqueue(
			{toolCalls: [{id: 'call_list', name: 'mcp__fs__list_directory', arguments: JSON.stringify({path: shared})}]},
			{toolCalls: [{id: 'call_read', name: 'mcp__fs__read_text_file', arguments: JSON.stringify({path: join(shared, 'plan.txt')})}]},
			{text: 'The plan is to write the MCP client.'},
		);
		run.type('what is the plan?\r');
		await run.waitFor(screen => screen.includes('Allow? Run list_directory') && screen.includes('· MCP server fs (') && screen.includes('[y] allow once'), 'the first approval');
		await sleep(TYPEAHEAD_GUARD_MS + 150);
		run.type('y');
		await run.waitFor(screen => screen.includes('Allow? Run read_text_file') && screen.includes('· MCP server fs (') && screen.includes('[y] allow once'), 'the second approval');
		await sleep(TYPEAHEAD_GUARD_MS + 150);
		run.type('y');
		await run.waitFor(screen => screen.includes('The plan is to write the MCP client.'), 'the answer');
		const first = mock.requests[sent]!.body;
		const offered = first.tools.map((tool: any) => tool.function.name);
		assert.ok(offered.includes('mcp__fs__read_text_file'), offered.join(', '));
		const readTool = first.tools.find((tool: any) => tool.function.name === 'mcp__fs__read_text_file');
		assert.equal(readTool.function.parameters.type, 'object');
		assert.ok('path' in readTool.function.parameters.properties);
		assert.match(toolResults(mock.requests[sent + 1]!.body).get('call_list') ?? '', /\[FILE\] plan\.txt/);
		assert.match(toolResults(mock.requests[sent + 2]!.body).get('call_read') ?? '', /step one: write the MCP client/);
	} finally {
		await run.close();
	}
});

test('an image result under alwaysAllow reaches the model as an image; a prompt runs as a slash command; /mcp reconnect', async () => {
	const box = withServers({every: {command: process.execPath, args: [everythingServer, 'stdio'], alwaysAllow: ['get-tiny-image']}});
	const {run} = await startChat(mock, {box});
	try {
		await waitForServer(run, 'every');
		const sent = mock.requests.length;
		mock.enqueue({toolCalls: [{id: 'call_image', name: 'mcp__every__get-tiny-image', arguments: '{}'}]}, {text: 'A tiny logo.'});
		run.type('show me the image\r');
		await run.waitFor(screen => screen.includes('A tiny logo.'), 'the answer, with no approval asked');
		const body = mock.requests[sent + 1]!.body;
		const images = body.messages.filter((message: any) => message.role === 'user' && Array.isArray(message.content)).flatMap((message: any) => message.content.filter((part: any) => part.type === 'image_url'));
		assert.equal(images.length, 1);
		assert.match(images[0].image_url.url, /^data:image\/png;base64,/);

		mock.enqueue({text: 'Sunny in Paris.'});
		run.type('/mcp__every__args-prompt\r');
		await run.waitFor(screen => screen.includes('/mcp__every__args-prompt needs city'), 'the missing argument');
		run.type('/mcp__every__args-prompt city=Paris\r');
		await run.waitFor(screen => screen.includes('Sunny in Paris.'), 'the prompt turn');
		assert.match(lastUserText(mock.requests.at(-1)!.body), /weather in Paris/);

		// A child agent started now gets the ready servers' tools with the parent's.
		const beforeChild = mock.requests.length;
		mock.enqueue(
			{toolCalls: [{id: 'call_child', name: 'delegate_task', arguments: JSON.stringify({task: 'Echo hi.', role: 'echoer', tools: ['mcp__every__echo'], maxTurns: 2})}]},
			{text: 'child says hi'},
			{text: 'The child said hi.'},
		);
		run.type('ask a child\r');
		await run.waitFor(screen => screen.includes('The child said hi.'), 'the parent after its child');
		const childTools = mock.requests[beforeChild + 1]!.body.tools.map((tool: any) => tool.function.name);
		assert.deepEqual(childTools, ['mcp__every__echo']);

		run.type('/mcp reconnect every\r');
		await run.waitFor(screen => /MCP server every is connected: \d+ tools/.test(screen), 'the reconnect');
		run.type('/mcp reconnect nobody\r');
		await run.waitFor(screen => screen.includes('there is no MCP server named "nobody"; configured: every'), 'the unknown name');
	} finally {
		await run.close();
	}
});

test('the @ picker lists server-everything’s resources once it is connected (typed before that, the picker did not wait); the chosen one is attached', async () => {
	const box = withServers({every: {command: process.execPath, args: [everythingServer, 'stdio']}});
	const {run} = await startChat(mock, {box});
	try {
		// Typed at once: the picker opens on the (empty) workspace and the server's resources join it when it is ready.
		run.type('summarise @every:demo');
		await run.waitFor(screen => /every:demo:\/\/resource\/\S+ .*\(MCP resource\)/.test(screen), 'a resource in the picker', {timeoutMs: 30_000});
		const row = run.screen().find(line => line.includes('› every:demo://'));
		assert.ok(row, run.screen().join('\n'));
		const uri = /› every:(demo:\/\/\S+)/.exec(row)![1]!;
		run.type('\t');
		await run.waitFor(screen => screen.includes(`summarise @every:${uri}`) && !screen.includes('Tab or Enter chooses'), 'the mention in the editor');
		mock.enqueue({text: 'A summary.'});
		const sent = mock.requests.length;
		run.type('please\r');
		await run.waitFor(screen => screen.includes('A summary.'), 'the answer');
		assert.match(lastUserText(mock.requests[sent]!.body), new RegExp(`<resource server="every" uri="${uri.replaceAll('/', '\\/').replaceAll('.', '\\.')}">`));
	} finally {
		await run.close();
	}
});

test('a server that needs an OAuth login: said once at start, needs login in /mcp; /mcp login NAME logs in (the test at $BROWSER) and connects it', async () => {
	const server = await startOAuthServer();
	const box = withServers({demo: {type: 'http', url: server.url}});
	const urls = join(box.root, 'browser.txt');
	const {run} = await startChat(mock, {box, cols: 250, env: {BROWSER: `${JSON.stringify(process.execPath)} ${JSON.stringify(recordBrowser)}`, RECORD_BROWSER_FILE: urls}});
	try {
		await run.waitFor(screen => screen.includes('MCP server demo needs login: run i mcp login demo (or /mcp login demo in the chat screen)'), 'the report at start');
		run.type('/mcp\r');
		await run.waitFor(screen => screen.includes('demo: needs login (http)') && screen.includes('/mcp login demo (or i mcp login demo) logs in'), '/mcp');
		run.type('/mcp login demo\r');
		await run.waitFor(screen => screen.includes('To log in to MCP server demo, open this address in a browser'), 'the address in the screen');
		await waitFor(() => existsSync(urls) && readFileSync(urls, 'utf8').includes('\n'), 10_000, 'the address at $BROWSER');
		// The screen stays live while the login waits.
		run.type('x');
		await run.waitFor(screen => /› x/.test(screen), 'typing during the login');
		run.type('\u007F');
		assert.equal((await fetch(readFileSync(urls, 'utf8').trim())).status, 200);
		await run.waitFor(screen => /logged in to MCP server demo \(oauth-demo 2\.0\.0 at .*; MCP server demo is connected: 2 tools/.test(screen), 'the login done');
		run.type('/mcp\r');
		await run.waitFor(screen => screen.includes('demo: ready (http)'), 'ready in /mcp');
		await run.waitFor(text => text.match(/MCP server demo needs login: run/g)?.length === 1, 'the start report, said once', {whole: true});
		assert.ok(
			!run
				.screen()
				.join('\n')
				.includes(JSON.parse(readFileSync(join(box.configDir, 'mcp-auth.json'), 'utf8')).servers.demo.tokens.access_token),
			'no token on the screen',
		);
	} finally {
		await run.close();
		server.close();
	}
});

test('a project whose only code is MCP servers is asked about: yes starts its server and is remembered, no skips it and says how to undo that', async () => {
	const place = () => {
		const box = makeSandbox();
		writeFileSync(join(box.workspace, '.mcp.json'), JSON.stringify({mcpServers: {everything: {command: process.execPath, args: [everythingServer]}}}));
		return box;
	};
	const question = (screen: string) => screen.includes('Trust this workspace?') && screen.includes('[y] trust and start it');
	const trusting = place();
	const first = await startChat(mock, {box: trusting, ready: false});
	try {
		await first.run.waitFor(question, 'the trust question');
		const screen = first.run
			.screen()
			.join(' ')
			.replaceAll(/[\s│]+/g, ' ');
		assert.match(screen, /Its MCP server would start as programs of yours, with your rights: everything \(\S*\.mcp\.json\)/);
		assert.doesNotMatch(screen, /extension/);
		await sleep(TYPEAHEAD_GUARD_MS + 150);
		first.run.type('y');
		await first.run.ready();
		await waitForServer(first.run, 'everything');
	} finally {
		await first.run.close();
	}

	const again = await startChat(mock, {box: trusting});
	try {
		await waitForServer(again.run, 'everything');
		assert.doesNotMatch(again.run.output(), /Trust this workspace/, 'the yes was remembered');
	} finally {
		await again.run.close();
	}

	const refusing = place();
	const refused = await startChat(mock, {box: refusing, ready: false});
	try {
		await refused.run.waitFor(question, 'the trust question');
		await sleep(TYPEAHEAD_GUARD_MS + 150);
		refused.run.type('n');
		await refused.run.ready();
		const skipped =
			/is not trusted, so its MCP servers were not started: everything \(\S*\.mcp\.json\); it was not trusted when asked; pass --trust-project to start them, or delete \S*trust\.json to be asked again/;
		await refused.run.waitFor(screen => skipped.test(screen.replaceAll(/[\s│]+/g, ' ')), 'the skipped server said, with how to undo it');
	} finally {
		await refused.run.close();
	}
});
