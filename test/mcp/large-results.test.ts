// Large MCP results cost in proportion to their size (issue 48): the stdio
// transport reads lines in linear time (line-reader.ts), a result just under
// the 32 MiB limit of one message arrives whole, and one past it ends the
// connection with a report that names the limit.
import {test, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, realpathSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {readMcpConfig} from '../../source/core/mcp/mcp-config.js';
import {McpServers} from '../../source/core/mcp/mcp-servers.js';
import {LineReader, LineTooLongError} from '../../source/core/mcp/line-reader.js';
import {MAX_MCP_MESSAGE_BYTES} from '../../source/core/mcp/stdio-transport.js';
import type {PlatformDirs} from '../../source/core/config/dirs.js';

const testServer = fileURLToPath(new URL('../fixtures/mcp/test-server.js', import.meta.url));
const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-mcp-large-')));
const opened: McpServers[] = [];
after(async () => Promise.all(opened.map(async servers => servers.close())));

async function fixtureServer() {
	const dirs: PlatformDirs = {config_dir: join(root, 'config'), data_dir: join(root, 'data'), cache_dir: join(root, 'cache'), runtime_dir: join(root, 'runtime')};
	const workspace = join(root, 'workspace');
	mkdirSync(dirs.config_dir, {recursive: true});
	mkdirSync(workspace, {recursive: true});
	writeFileSync(join(dirs.config_dir, 'settings.json'), JSON.stringify({mcpServers: {fx: {command: process.execPath, args: [testServer]}}}));
	const environment = {PATH: process.env.PATH};
	const config = await readMcpConfig({workspace, configDir: dirs.config_dir, trusted: false, environment});
	const reports: string[] = [];
	const servers = new McpServers({config, workspace, dirs, clientVersion: '0.0.0-test', takenToolNames: new Map(), report: message => reports.push(message), environment});
	opened.push(servers);
	await servers.start();
	return {servers, reports, workspace};
}

test('LineReader: lines across chunks, CRLF, several in one chunk; a line at the bound passes, one byte more is refused and the reader starts afresh', () => {
	const reader = new LineReader(10);
	assert.deepEqual(reader.push(Buffer.from('ab')), []);
	assert.deepEqual(reader.push(Buffer.from('c\r\nde\nf')), ['abc', 'de']);
	assert.deepEqual(reader.push(Buffer.from('ghijklmno\n')), ['fghijklmno']);
	assert.throws(
		() => reader.push(Buffer.from('0123456789A')),
		(error: Error) => error instanceof LineTooLongError && /larger than/.test(error.message),
	);
	assert.deepEqual(reader.push(Buffer.from('next\n')), ['next']);
});

test('LineReader: a 30 MiB line in 64 KiB chunks comes out whole', () => {
	const reader = new LineReader(MAX_MCP_MESSAGE_BYTES);
	const chunk = Buffer.alloc(64 * 1024, 'x');
	let lines: string[] = [];
	for (let sent = 0; sent < 30 * 1024 * 1024; sent += chunk.length) lines = reader.push(chunk);
	assert.deepEqual(lines, []);
	const done = reader.push(Buffer.from('\n'));
	assert.equal(done.length, 1);
	assert.equal(done[0]!.length, 30 * 1024 * 1024);
});

test('a 30 MB tool result arrives whole (cut to the output limit); a result past 32 MiB ends the connection naming the limit', async () => {
	const {servers, reports, workspace} = await fixtureServer();
	const big = servers.tools().find(tool => tool.name === 'mcp__fx__big');
	assert.ok(
		big,
		servers
			.tools()
			.map(tool => tool.name)
			.join(', '),
	);
	const context = {workspace, signal: new AbortController().signal, outputLimit: 100_000};
	const whole = await (await big.plan({chars: 30_000_000}, context)).run();
	assert.notEqual(whole.isError, true, whole.output);
	assert.ok(whole.output.startsWith('bbbb'), whole.output.slice(0, 100));

	const tooBig = await (await big.plan({chars: 34_000_000}, context)).run().catch((error: Error) => ({output: error.message, isError: true}));
	assert.equal(tooBig.isError, true);
	assert.match([tooBig.output, ...reports].join('\n'), /larger than 32 MiB, the limit of one MCP message/);
});
