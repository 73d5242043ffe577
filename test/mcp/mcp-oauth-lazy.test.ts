// The OAuth code (mcp-oauth-provider.ts, mcp-auth-file.ts, mcp-login.ts)
// and the remote transports load only for a run with a remote server: a
// one-shot whose stdio server is started (its resource is named) runs none
// of those modules of the headless bundle, as V8's coverage of the run tells.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {ranInHeadless} from '../helpers/coverage.js';
import {makeSandbox, runCli} from '../helpers/cli.js';

const everythingServer = fileURLToPath(new URL('../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
const oauthModules = ['mcp-oauth-provider', 'mcp-auth-file', 'mcp-login', 'oauth-callback', 'remote-transport'].map(name => `dist/source/core/mcp/${name}.js`);

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

async function ran(mcpServers: Record<string, unknown>): Promise<Set<string>> {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0});
	writeFileSync(join(box.configDir, 'settings.json'), JSON.stringify({mcpServers}));
	const coverage = join(box.root, 'coverage');
	mock.enqueue({text: 'ok'});
	const run = await runCli(['-p', 'see @every:demo://resource/dynamic/text/1'], {env: {...box.env, NODE_V8_COVERAGE: coverage}, cwd: box.workspace, timeoutMs: 60_000});
	assert.equal(run.code, 0, run.stderr);
	const modules = ranInHeadless(coverage);
	assert.ok((modules.get('dist/source/core/mcp/mcp-connection.js') ?? 0) > 0, 'the MCP servers were started');
	return new Set(oauthModules.filter(module => (modules.get(module) ?? 0) > 0));
}

test('a run with stdio servers only never runs the OAuth modules; one with a remote server does', async () => {
	const stdio = {every: {command: process.execPath, args: [everythingServer, 'stdio']}};
	assert.deepEqual([...(await ran(stdio))], []);
	// A remote server nobody listens at (port 9, discard): it fails, but its transport and provider were loaded for it.
	const remote = await ran({...stdio, far: {type: 'http', url: 'http://127.0.0.1:9/mcp'}});
	assert.ok(remote.has('dist/source/core/mcp/remote-transport.js') && remote.has('dist/source/core/mcp/mcp-oauth-provider.js'), [...remote].join(', '));
});
