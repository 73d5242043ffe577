// /reload reads the permission rules again (source/tui/commands/reload-command.ts,
// screen-extensions.ts, reload-rules.ts), in process against a real agent:
// after the extensions, so a rule may name a tool the reloaded extension
// registers; quiet when nothing changed, one info notice and each problem as
// a warning when something did; the extensions' notice stays the last word.
import {test, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {ApprovalRequest} from '../../source/core/agent/approval-gate.js';
import type {Agent} from '../../source/core/session/agent.js';
import {setupAgent} from '../../source/core/session/setup-agent.js';
import type {CommandContext} from '../../source/tui/commands/command-context.js';
import {reloadCommand} from '../../source/tui/commands/reload-command.js';
import {ScreenExtensions} from '../../source/tui/screen-extensions.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-reload-rules-')));
for (const [name, folder] of [
	['I_CONFIG_DIR', 'config'],
	['I_DATA_DIR', 'data'],
	['I_CACHE_DIR', 'cache'],
	['I_RUNTIME_DIR', 'runtime'],
] as const) {
	process.env[name] = join(root, folder);
}
process.env.RELOAD_RULES_KEY = 'sk-reload-rules';
after(() => rmSync(root, {recursive: true, force: true}));

const call = (name: string, args: Record<string, unknown>): ApprovalRequest => ({id: 'c1', name, arguments: args, ask: {title: name, detail: ''}, external: name !== 'shell', owner: 'native'});
const shell = (command: string) => call('shell', {command});

/** /reload as the screen runs it, with the real agent and the screen's extensions; the notices it shows are collected. */
async function reload(agent: Agent): Promise<Array<[string, string]>> {
	const notices: Array<[string, string]> = [];
	const store = {notice: (level: string, text: string) => notices.push([level, text]), setBusy: () => {}, extend: () => {}, setResources: () => {}, apply: () => {}};
	const extensions = new ScreenExtensions({agent, store, registry: {replaceAdded: () => {}, added: []}, options: {dev: undefined, extensions: []}});
	const context = {agent, store, extensions, sessions: {readInstructions: async () => ({changed: false, instructions: {files: []}})}} as unknown as CommandContext;
	try {
		await reloadCommand.run(context, '');
	} finally {
		extensions.stop();
	}

	assert.match(notices.at(-1)?.[1] ?? '', /^reloaded \d+ extensions?$/, "the last word is the extensions'");
	return notices;
}

test('/reload reads an edited .i/settings.local.json: a new deny rule refuses the next call, and a rule naming a tool the reloaded extension now registers can be used', async () => {
	const workspace = join(root, 'workspace');
	mkdirSync(join(workspace, '.i'), {recursive: true});
	const local = join(workspace, '.i', 'settings.local.json');
	const writeLocal = (permissions: Record<string, string[]>) => writeFileSync(local, JSON.stringify({permissions}));
	writeLocal({allow: ['shell(echo hi*)']});
	const extension = join(root, 'tools.mjs');
	const registering = (name: string) => writeFileSync(extension, `export default api => api.registerTool({name: '${name}', description: 'd', parameters: {type: 'object'}, execute: () => ({output: 'ok'})});`);
	registering('other_tool');
	const agent = await setupAgent(
		{
			cwd: workspace,
			config: {protocol: 'openai', base_url: 'http://127.0.0.1:9/v1', model: 'reload-model', api_key_env: 'RELOAD_RULES_KEY', max_retries: 0},
			extensions: [extension],
			trustProject: true,
			permissionProblems: 'notice',
		},
		() => {},
	);
	try {
		const permissions = agent.permissions!;
		assert.equal((await permissions.check(shell('echo hi there')))?.decision, 'allow');
		const rulesNotices = (notices: Array<[string, string]>) => notices.filter(([, text]) => /permission rule/.test(text));
		assert.deepEqual(rulesNotices(await reload(agent)), [], 'nothing changed: nothing said');

		writeLocal({allow: ['shell(echo hi*)'], deny: ['shell(echo hi there)']});
		assert.deepEqual(rulesNotices(await reload(agent)), [['info', 'permission rules: 2 read (.i/settings.local.json)']]);
		assert.match((await permissions.check(shell('echo hi there')))?.reason ?? '', /^denied by the permission rule "shell\(echo hi there\)" \(.*settings\.local\.json\)$/);
		assert.equal((await permissions.check(shell('echo hi')))?.decision, 'allow');

		writeLocal({allow: ['shell(echo hi*)', 'my_tool']});
		const unknown = rulesNotices(await reload(agent));
		assert.equal(unknown.length, 2, JSON.stringify(unknown));
		assert.equal(unknown[0]![0], 'warning');
		assert.match(unknown[0]![1], /permissions\.allow\[1\] "my_tool": unknown tool "my_tool"/);
		assert.deepEqual(unknown[1], ['info', 'permission rules: 1 read, 1 cannot be used (.i/settings.local.json)']);
		assert.equal(await permissions.check(shell('echo hi')), null, 'no allow rule counts while one cannot be used');

		registering('my_tool');
		assert.deepEqual(rulesNotices(await reload(agent)), [['info', 'permission rules: 2 read (.i/settings.local.json)']]);
		assert.ok(agent.tools.some(tool => tool.name === 'my_tool'));
		assert.equal((await permissions.check(call('my_tool', {})))?.decision, 'allow');
		assert.equal((await permissions.check(shell('echo hi')))?.decision, 'allow');

		writeFileSync(local, '{"permissions": ');
		const broken = rulesNotices(await reload(agent));
		assert.equal(broken.length, 1);
		assert.match(broken[0]![1], /^the permission rules were not read again, and those read before stay: settings .*settings\.local\.json: not valid JSON/);
		assert.equal((await permissions.check(call('my_tool', {})))?.decision, 'allow');

		writeLocal({});
		assert.deepEqual(rulesNotices(await reload(agent)), [['info', 'permission rules: none now']]);
		assert.equal(await permissions.check(call('my_tool', {})), null);
	} finally {
		await agent.close();
	}
});

test('a reload that changed nothing does not repeat what the start said about an untrusted workspace’s allow rules', async () => {
	const workspace = join(root, 'untrusted');
	mkdirSync(join(workspace, '.i'), {recursive: true});
	writeFileSync(join(workspace, '.i', 'settings.json'), JSON.stringify({permissions: {allow: ['shell(ls)']}}));
	const warnings: string[] = [];
	const agent = await setupAgent(
		{cwd: workspace, config: {protocol: 'openai', base_url: 'http://127.0.0.1:9/v1', model: 'reload-model', api_key_env: 'RELOAD_RULES_KEY', max_retries: 0}, permissionProblems: 'notice'},
		event => {
			if (event.type === 'warning') warnings.push(event.message);
		},
	);
	try {
		assert.match(warnings.join('\n'), /is not trusted, so the allow rules of .*settings\.json do not count/);
		assert.deepEqual(
			(await reload(agent)).filter(([, text]) => /permission rule|allow rules/.test(text)),
			[],
		);
	} finally {
		await agent.close();
	}
});
