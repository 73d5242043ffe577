// The limits of resources attached with @server:uri (resource-mentions.ts),
// against the SDK's own McpServer (test/fixtures/mcp/test-server.ts), whose
// resources size://N hold N characters: a resource at MAX_RESOURCE_CHARS is
// whole and one past it is cut, saying so; MAX_RESOURCES_PER_MESSAGE are
// attached and one more is left out, saying so.
import {test, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, realpathSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import type {PlatformDirs} from '../../source/core/config/dirs.js';
import {readMcpConfig} from '../../source/core/mcp/mcp-config.js';
import {McpHandle} from '../../source/core/mcp/mcp-handle.js';
import {McpServers} from '../../source/core/mcp/mcp-servers.js';
import {attachResources, MAX_RESOURCE_CHARS, MAX_RESOURCES_PER_MESSAGE} from '../../source/core/mcp/resource-mentions.js';

const testServer = fileURLToPath(new URL('../fixtures/mcp/test-server.js', import.meta.url));
const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-mcp-limits-')));
const handles: McpHandle[] = [];
after(async () => Promise.all(handles.map(async handle => handle.close())));

async function handle(): Promise<McpHandle> {
	const dirs: PlatformDirs = {config_dir: join(root, 'config'), data_dir: join(root, 'data'), cache_dir: join(root, 'cache'), runtime_dir: join(root, 'runtime')};
	const workspace = join(root, 'workspace');
	mkdirSync(dirs.config_dir, {recursive: true});
	mkdirSync(workspace, {recursive: true});
	writeFileSync(join(dirs.config_dir, 'settings.json'), JSON.stringify({mcpServers: {t: {command: process.execPath, args: [testServer]}}}));
	const environment = {PATH: process.env.PATH};
	const config = await readMcpConfig({workspace, configDir: dirs.config_dir, trusted: false, environment});
	const opened = new McpHandle(Promise.resolve(async () => new McpServers({config, workspace, dirs, clientVersion: '0.0.0-test', takenToolNames: new Map(), report: () => {}, environment})));
	handles.push(opened);
	return opened;
}

const block = (text: string, uri: string) => new RegExp(`<resource server="t" uri="${uri}">\\n(r*)(\\n\\[cut: [^\\]]*\\])?\\n</resource>`).exec(text);

test(`a resource of MAX_RESOURCE_CHARS (${MAX_RESOURCE_CHARS}) is attached whole; one character more is cut to it, saying so`, async () => {
	const mcp = await handle();
	const whole = await attachResources(`see @t:size://${MAX_RESOURCE_CHARS}`, mcp);
	assert.deepEqual(whole.problems, []);
	const atLimit = block(whole.text, `size://${MAX_RESOURCE_CHARS}`);
	assert.equal(atLimit?.[1]?.length, MAX_RESOURCE_CHARS);
	assert.equal(atLimit?.[2], undefined, 'not cut');

	const over = await attachResources(`see @t:size://${MAX_RESOURCE_CHARS + 1}`, mcp);
	const cut = block(over.text, `size://${MAX_RESOURCE_CHARS + 1}`);
	assert.equal(cut?.[1]?.length, MAX_RESOURCE_CHARS);
	assert.equal(cut?.[2], `\n[cut: the first ${MAX_RESOURCE_CHARS} of ${MAX_RESOURCE_CHARS + 1} characters]`);
});

test(`MAX_RESOURCES_PER_MESSAGE (${MAX_RESOURCES_PER_MESSAGE}) resources are attached; one more is left out, and the message says how many were named`, async () => {
	const mcp = await handle();
	const mentions = (count: number) => Array.from({length: count}, (_, index) => `@t:size://${index + 1}`).join(' ');
	const all = await attachResources(mentions(MAX_RESOURCES_PER_MESSAGE), mcp);
	assert.deepEqual(all.problems, []);
	assert.equal(all.text.match(/<resource /g)?.length, MAX_RESOURCES_PER_MESSAGE);

	const tooMany = await attachResources(mentions(MAX_RESOURCES_PER_MESSAGE + 1), mcp);
	assert.deepEqual(tooMany.problems, [`${MAX_RESOURCES_PER_MESSAGE + 1} resources were mentioned; the first ${MAX_RESOURCES_PER_MESSAGE} are attached`]);
	assert.equal(tooMany.text.match(/<resource /g)?.length, MAX_RESOURCES_PER_MESSAGE);
	assert.ok(!tooMany.text.includes(`uri="size://${MAX_RESOURCES_PER_MESSAGE + 1}"`), 'the one past the limit is not read');
});
