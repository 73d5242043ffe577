// The trust question for a project whose only content is permission allow
// rules (docs/approvals.md, "Trusting a workspace"): decideTrust lists them,
// and a real agent set up in process asks about them, reads them after the
// answer (a yes counts at once, a no says how to be asked again), and a head
// that cannot ask keeps warning that they are ignored.
import {test, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {ApprovalRequest} from '../../source/core/agent/approval-gate.js';
import {resolveDirs} from '../../source/core/config/dirs.js';
import {decideTrust, type TrustQuestion} from '../../source/core/session/decide-trust.js';
import {setupAgent, type SetupOptions} from '../../source/core/session/setup-agent.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-trust-rules-')));
for (const [name, folder] of [
	['I_CONFIG_DIR', 'config'],
	['I_DATA_DIR', 'data'],
	['I_CACHE_DIR', 'cache'],
	['I_RUNTIME_DIR', 'runtime'],
] as const) {
	process.env[name] = join(root, folder);
}
process.env.TRUST_RULES_KEY = 'sk-trust-rules';
after(() => rmSync(root, {recursive: true, force: true}));

let workspaces = 0;
/** A workspace whose only project content is the given settings files' permission lists. */
function workspaceWith(files: {project?: Record<string, string[]>; local?: Record<string, string[]>; sandbox?: Record<string, unknown>}): string {
	const workspace = join(root, `workspace-${++workspaces}`);
	mkdirSync(join(workspace, '.i'), {recursive: true});
	if (files.project || files.sandbox)
		writeFileSync(join(workspace, '.i', 'settings.json'), JSON.stringify({...(files.project ? {permissions: files.project} : {}), ...(files.sandbox ? {sandbox: files.sandbox} : {})}));
	if (files.local) writeFileSync(join(workspace, '.i', 'settings.local.json'), JSON.stringify({permissions: files.local}));
	return workspace;
}

/** A real agent of the workspace (no request is made); `answer` is the person's, or undefined for a head that cannot ask. */
async function start(workspace: string, answer: boolean | undefined, options: Partial<SetupOptions> = {}) {
	const questions: TrustQuestion[] = [];
	const warnings: string[] = [];
	const askTrust =
		answer === undefined
			? undefined
			: async (question: TrustQuestion) => {
					questions.push(question);
					return answer;
				};
	const agent = await setupAgent(
		{
			cwd: workspace,
			config: {protocol: 'openai', base_url: 'http://127.0.0.1:9/v1', model: 'trust-model', api_key_env: 'TRUST_RULES_KEY', max_retries: 0},
			askTrust,
			permissionProblems: askTrust ? 'notice' : 'fail',
			...options,
		},
		event => {
			if (event.type === 'warning') warnings.push(event.message);
		},
	);
	return {agent, questions, warnings};
}

const shell = (command: string): ApprovalRequest => ({id: 'c1', name: 'shell', arguments: {command}, ask: {title: `Run: ${command}`, detail: command}, external: false, owner: 'native'});

test('decideTrust puts the allow rules in the question when only a person can decide; canAsk false decides without them', async () => {
	const workspace = workspaceWith({});
	const context = {workspace, dirs: resolveDirs(), events: null};
	const allowRules = ['shell(npm test*) (.i/settings.json)'];
	const undecided = await decideTrust({canAsk: true}, context, {allowRules});
	assert.ok('undecided' in undecided);
	let asked: TrustQuestion | undefined;
	assert.deepEqual(
		await undecided.ask(async question => {
			asked = question;
			return false;
		}),
		{trusted: false, refusedIn: asked?.rememberedIn},
	);
	assert.deepEqual({...asked, rememberedIn: undefined}, {workspace, extensions: [], mcpServers: [], allowRules, sandboxSettings: [], modelEndpoints: [], rememberedIn: undefined});
	assert.deepEqual(await decideTrust({canAsk: false, trustProject: true}, context, {allowRules}), {trusted: true});
});

test('a project whose only content is allow rules is asked about, listing each with its file; yes makes them count at once and is remembered', async () => {
	const workspace = workspaceWith({project: {allow: ['shell(echo hi*)']}, local: {allow: ['shell(ls)'], deny: ['shell(rm *)']}});
	const first = await start(workspace, true);
	try {
		assert.equal(first.questions.length, 1);
		assert.deepEqual(first.questions[0]!.allowRules, ['shell(echo hi*) (.i/settings.json)', 'shell(ls) (.i/settings.local.json)']);
		assert.deepEqual([first.questions[0]!.extensions, first.questions[0]!.mcpServers], [[], []]);
		assert.equal((await first.agent.permissions!.check(shell('echo hi')))?.decision, 'allow');
		assert.equal((await first.agent.permissions!.check(shell('ls')))?.decision, 'allow');
		assert.ok(!first.warnings.some(message => message.includes('not trusted')), first.warnings.join('\n'));
	} finally {
		await first.agent.close();
	}

	const again = await start(workspace, false);
	try {
		assert.equal(again.questions.length, 0, 'the yes was remembered');
		assert.equal((await again.agent.permissions!.check(shell('echo hi')))?.decision, 'allow');
	} finally {
		await again.agent.close();
	}
});

test('no leaves the allow rules out, and the warning says which file to delete to be asked again; deny rules count either way', async () => {
	const workspace = workspaceWith({project: {allow: ['shell(echo hi*)'], deny: ['shell(rm *)']}});
	const {agent, questions, warnings} = await start(workspace, false);
	try {
		assert.equal(questions.length, 1);
		assert.deepEqual(questions[0]!.allowRules, ['shell(echo hi*) (.i/settings.json)']);
		assert.equal(await agent.permissions!.check(shell('echo hi')), null);
		assert.equal((await agent.permissions!.check(shell('rm x')))?.decision, 'deny');
		assert.match(
			warnings.join('\n'),
			/is not trusted, so the allow rules of .*\.i\/settings\.json do not count \(its deny and ask rules do\); it was not trusted when asked; pass --trust-project to use them for this run, or delete .*trust\.json to be asked again/,
		);
	} finally {
		await agent.close();
	}
});

test('a head that cannot ask never asks and warns that the allow rules are ignored; --trust-project and global rules need no question', async () => {
	const workspace = workspaceWith({project: {allow: ['shell(echo hi*)']}});
	const headless = await start(workspace, undefined);
	try {
		assert.equal(await headless.agent.permissions!.check(shell('echo hi')), null);
		assert.match(headless.warnings.join('\n'), /is not trusted, so the allow rules of .*\.i\/settings\.json do not count .*; pass --trust-project to use them for this run$/m);
	} finally {
		await headless.agent.close();
	}

	const flagged = await start(workspace, true, {trustProject: true});
	try {
		assert.equal(flagged.questions.length, 0);
		assert.equal((await flagged.agent.permissions!.check(shell('echo hi')))?.decision, 'allow');
	} finally {
		await flagged.agent.close();
	}

	// Only deny rules in the project: nothing would count after a yes, so nothing is asked.
	const denies = await start(workspaceWith({project: {deny: ['shell(rm *)']}}), true);
	try {
		assert.equal(denies.questions.length, 0);
	} finally {
		await denies.agent.close();
	}
});

test('a project whose only content is sandbox settings is asked about, listing each with its file; yes makes them count', async () => {
	const workspace = workspaceWith({sandbox: {enabled: false, allowWrite: ['/tmp'], allowedDomains: ['registry.npmjs.org']}});
	const {agent, questions, warnings} = await start(workspace, true);
	try {
		assert.equal(questions.length, 1);
		assert.deepEqual(questions[0]!.sandboxSettings, ['enabled false (.i/settings.json)', 'allowWrite /tmp (.i/settings.json)', 'allowedDomains registry.npmjs.org (.i/settings.json)']);
		assert.deepEqual([questions[0]!.extensions, questions[0]!.mcpServers, questions[0]!.allowRules], [[], [], []]);
		assert.ok(!warnings.some(message => message.includes('not trusted')), warnings.join('\n'));
	} finally {
		await agent.close();
	}
});

test('a project whose only content is a models.json that moves a provider is asked about; yes makes it count, no leaves it out and says so', async () => {
	const workspace = join(root, `workspace-${++workspaces}`);
	mkdirSync(join(workspace, '.i'), {recursive: true});
	writeFileSync(join(workspace, '.i', 'models.json'), JSON.stringify({providers: {openai: {baseUrl: 'http://127.0.0.1:9/v1'}}}));
	process.env.OPENAI_API_KEY = 'sk-trust-endpoint';
	const config = {provider: 'openai', model: 'gpt-4.1', max_retries: 0};
	const yes = await start(workspace, true, {config});
	try {
		assert.equal(yes.questions.length, 1);
		assert.deepEqual(yes.questions[0]!.modelEndpoints, ['provider openai: baseUrl http://127.0.0.1:9/v1 (.i/models.json)']);
		assert.ok(!yes.warnings.some(message => message.includes('moves no provider')), yes.warnings.join('\n'));
	} finally {
		await yes.agent.close();
	}

	// The answer is remembered: a new start asks nothing. A fresh workspace answered no leaves the entry out.
	const other = join(root, `workspace-${++workspaces}`);
	mkdirSync(join(other, '.i'), {recursive: true});
	writeFileSync(join(other, '.i', 'models.json'), JSON.stringify({providers: {openai: {baseUrl: 'http://127.0.0.1:9/v1'}}}));
	const no = await start(other, false, {config});
	try {
		assert.equal(no.questions.length, 1);
		assert.ok(
			no.warnings.some(message => message.includes('so its models.json moves no provider')),
			no.warnings.join('\n'),
		);
	} finally {
		await no.agent.close();
		delete process.env.OPENAI_API_KEY;
	}
});
