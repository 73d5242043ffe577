// The MCP configuration: the three files, ${VAR} expansion, every field checked
// with errors naming the file and the server, and project entries only in a
// trusted workspace.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, realpathSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {readMcpConfig, untrustedWarning, MAX_MCP_SERVERS, MAX_MCP_SERVER_NAME_LENGTH, MAX_MCP_TIMEOUT_SECONDS} from '../../source/core/mcp/mcp-config.js';

function folders() {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-mcp-config-')));
	const workspace = join(root, 'workspace');
	const configDir = join(root, 'config');
	mkdirSync(join(workspace, '.i'), {recursive: true});
	mkdirSync(configDir);
	return {
		workspace,
		configDir,
		project: join(workspace, '.i', 'settings.json'),
		mcpJson: join(workspace, '.mcp.json'),
		global: join(configDir, 'settings.json'),
	};
}

const write = (path: string, data: unknown) => writeFileSync(path, typeof data === 'string' ? data : JSON.stringify(data, null, 2));

test('the three files, first named wins, with stdio, http and sse entries and their defaults', async () => {
	const at = folders();
	write(at.project, {mcpServers: {a: {command: 'node', args: ['a.js'], cwd: 'tools', alwaysAllow: ['x'], timeout: 5, roots: false}}});
	// biome-ignore lint/suspicious/noTemplateCurlyInString: the MCP configuration's own ${VAR} syntax
	write(at.mcpJson, {mcpServers: {a: {command: 'shadowed'}, b: {type: 'http', url: 'https://example.test/mcp', headers: {Authorization: 'Bearer ${TOKEN}'}}}});
	write(at.global, {theme: 'dark', mcpServers: {c: {type: 'sse', url: 'http://127.0.0.1:9/sse'}, d: {command: 'x', disabled: true}}});
	const config = await readMcpConfig({workspace: at.workspace, configDir: at.configDir, trusted: true, environment: {TOKEN: 'tok-1'}});
	assert.deepEqual(
		config.servers.map(server => [server.name, server.transport, server.file]),
		[
			['a', 'stdio', at.project],
			['b', 'http', at.mcpJson],
			['c', 'sse', at.global],
		],
	);
	const [a, b] = config.servers;
	assert.ok(a?.transport === 'stdio');
	assert.equal(a.cwd, join(at.workspace, 'tools'));
	assert.equal(a.timeoutMs, 5000);
	assert.deepEqual([...a.alwaysAllow], ['x']);
	assert.equal(a.roots, false);
	assert.ok(b?.transport === 'http');
	assert.equal(b.timeoutMs, 60_000, 'the default timeout');
	assert.equal(b.roots, true, 'roots are offered by default');
	assert.equal(a.startTimeoutMs, 60_000, 'the start has its own');
	assert.deepEqual(b.headers, {Authorization: 'Bearer tok-1'});
	assert.deepEqual(config.disabled, [{name: 'd', file: at.global}]);
	assert.match(config.warnings.join('\n'), new RegExp(`MCP server "a" of ${at.mcpJson} is not used: ${at.project} names a server "a" first`));
});

test('an untrusted workspace: the project entries are skipped with one warning, the global ones start', async () => {
	const at = folders();
	write(at.project, {mcpServers: {mine: {command: 'node'}}});
	write(at.mcpJson, {mcpServers: {theirs: {command: 'curl', args: ['evil']}}});
	write(at.global, {mcpServers: {global: {command: 'node'}}});
	const config = await readMcpConfig({workspace: at.workspace, configDir: at.configDir, trusted: false, environment: {}});
	assert.deepEqual(
		config.servers.map(server => server.name),
		['global'],
	);
	assert.deepEqual(config.warnings, []);
	assert.deepEqual(
		config.untrusted?.servers.map(server => server.name),
		['mine', 'theirs'],
	);
	assert.match(untrustedWarning(at.workspace, config.untrusted!), /is not trusted, so its MCP servers were not started: mine \(.*settings\.json\); theirs \(.*\.mcp\.json\); pass --trust-project/);
});

// biome-ignore lint/suspicious/noTemplateCurlyInString: the MCP configuration's own ${VAR} syntax
test('${VAR} in env, headers and url; an unset one names the variable, the server and the file', async () => {
	const at = folders();
	// biome-ignore lint/suspicious/noTemplateCurlyInString: the MCP configuration's own ${VAR} syntax
	write(at.global, {mcpServers: {s: {command: 'node', env: {KEY: '${KEY}', MODE: '${MODE:-fast}'}}, h: {type: 'http', url: 'https://${HOST}/mcp'}}});
	const config = await readMcpConfig({workspace: at.workspace, configDir: at.configDir, trusted: false, environment: {KEY: 'k', HOST: 'mcp.example.test'}});
	const [s, h] = config.servers;
	assert.ok(s?.transport === 'stdio' && h?.transport === 'http');
	assert.deepEqual(s.env, {KEY: 'k', MODE: 'fast'});
	assert.equal(h.url.href, 'https://mcp.example.test/mcp');
	await assert.rejects(readMcpConfig({workspace: at.workspace, configDir: at.configDir, trusted: false, environment: {HOST: 'x'}}), {
		name: 'UsageError',
		message: `${at.global}: MCP server "s", env.KEY: the environment variable KEY is not set (\${KEY}); set it, or write \${KEY:-default}`,
	});
});

test('every field is checked: the error names the file, the server and the field', async () => {
	const at = folders();
	const cases: Array<[unknown, RegExp]> = [
		[{command: ''}, /MCP server "s": field "command": an empty command/],
		[{command: 'x', args: 'a b'}, /MCP server "s": field "args"/],
		[{command: 'x', env: {A: 1}}, /MCP server "s": field "env.A"/],
		[{command: 'x', timeout: 0}, /field "timeout": must be a positive number of seconds/],
		[{command: 'x', roots: 'no'}, /MCP server "s": field "roots"/],
		[{command: 'x', timeout: MAX_MCP_TIMEOUT_SECONDS + 1}, /field "timeout": at most 3600 seconds/],
		[{command: 'x', startTimeout: -1}, /field "startTimeout": must be a positive number of seconds/],
		[{command: 'x', extra: true}, /MCP server "s": unknown field "extra"/],
		[{type: 'http'}, /MCP server "s": missing field "url"/],
		[{type: 'http', url: 'not a url'}, /MCP server "s": "url" is not a URL/],
		[{type: 'http', url: 'file:///etc/passwd'}, /"url" must be http:\/\/ or https:\/\//],
		[{type: 'websocket', url: 'ws://x'}, /MCP server "s": field "type" must be "stdio", "http" or "sse" \(got "websocket"\)/],
		[{args: ['x']}, /a server has a "command", or a "type" of "http" or "sse" and a "url"/],
		['node x.js', /MCP server "s": must be an object/],
	];
	for (const [entry, message] of cases) {
		write(at.global, {mcpServers: {s: entry}});
		await assert.rejects(readMcpConfig({workspace: at.workspace, configDir: at.configDir, trusted: false, environment: {}}), error => {
			assert.ok((error as Error).message.startsWith(`${at.global}: `), (error as Error).message);
			assert.match((error as Error).message, message);
			return true;
		});
	}
});

test('the limits: server names, the number of servers, the file itself', async () => {
	const at = folders();
	write(at.global, {mcpServers: {['n'.repeat(MAX_MCP_SERVER_NAME_LENGTH)]: {command: 'x'}}});
	assert.equal((await readMcpConfig({workspace: at.workspace, configDir: at.configDir, trusted: false})).servers.length, 1);
	write(at.global, {mcpServers: {['n'.repeat(MAX_MCP_SERVER_NAME_LENGTH + 1)]: {command: 'x'}}});
	await assert.rejects(readMcpConfig({workspace: at.workspace, configDir: at.configDir, trusted: false}), /a name is 1–32 ASCII letters/);
	write(at.global, {mcpServers: {'a b': {command: 'x'}}});
	await assert.rejects(readMcpConfig({workspace: at.workspace, configDir: at.configDir, trusted: false}), /MCP server "a b": a name is/);
	const many = (n: number) => Object.fromEntries(Array.from({length: n}, (_, index) => [`s${index}`, {command: 'x'}]));
	write(at.global, {mcpServers: many(MAX_MCP_SERVERS)});
	assert.equal((await readMcpConfig({workspace: at.workspace, configDir: at.configDir, trusted: false})).servers.length, MAX_MCP_SERVERS);
	write(at.global, {mcpServers: many(MAX_MCP_SERVERS + 1)});
	await assert.rejects(readMcpConfig({workspace: at.workspace, configDir: at.configDir, trusted: false}), /lists 65 servers, at most 64/);
	write(at.mcpJson, '{"mcpServers": ');
	await assert.rejects(readMcpConfig({workspace: at.workspace, configDir: at.configDir, trusted: true}), /MCP config .*\.mcp\.json: not valid JSON/);
});

test('with several broken files the first in lookup order is the one reported, however the reads finish', async () => {
	const at = folders();
	write(at.project, '[');
	write(at.mcpJson, '{"mcpServers": ');
	write(at.global, {mcpServers: Object.fromEntries(Array.from({length: MAX_MCP_SERVERS + 1}, (_, index) => [`s${index}`, {command: 'x'}]))});
	for (let round = 0; round < 20; round++) {
		await assert.rejects(readMcpConfig({workspace: at.workspace, configDir: at.configDir, trusted: true}), error => {
			assert.ok((error as Error).message.includes(at.project), (error as Error).message);
			return true;
		});
	}

	write(at.project, {});
	await assert.rejects(readMcpConfig({workspace: at.workspace, configDir: at.configDir, trusted: true}), /MCP config .*\.mcp\.json: not valid JSON/);
});
