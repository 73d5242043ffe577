// Extensions and the chat screen in a real pseudo-terminal
// (spec/extensions.md §8, §5; issue 14): the trust question, ProjectTrust
// before it, BeforeTuiStart before the terminal is touched,
// UiPromptStart/End around i's own questions, and console output from
// extension code as notices.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {TYPEAHEAD_GUARD_MS} from '../../components/Approval.js';
import {BEFORE_TUI_START_TIMEOUT_MS} from '../../source/core/extensions/event-tags.js';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {cliPath, makeSandbox, type Sandbox} from '../helpers/cli.js';
import {spawnInTerminal, type TerminalRun} from '../helpers/pty.js';
import {MODEL, startChat} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

interface Place {
	box: Sandbox;
	env: NodeJS.ProcessEnv;
	/** Where the user extensions' handlers write what they saw, one JSON line each. */
	log: string;
	projectExtension: string;
}

/**
 * A workspace with one project extension (`.i/extensions/proj.mjs`, the tool
 * `proj_tool`) and the given user extensions in I_EXTENSIONS_DIR (no trust
 * needed); `LOG` in their source is the log file's path.
 */
function place(
	user: Record<string, string> = {},
	project = `export default api => api.registerTool({name: 'proj_tool', description: 'the project tool', parameters: {type: 'object'}, execute: () => ({output: 'ok'})});`,
): Place {
	const box = makeSandbox();
	const log = join(box.root, 'events.log');
	const userDir = join(box.root, 'user-extensions');
	const projectDir = join(box.workspace, '.i', 'extensions');
	mkdirSync(userDir);
	mkdirSync(projectDir, {recursive: true});
	for (const [name, source] of Object.entries(user)) writeFileSync(join(userDir, `${name}.mjs`), source.replaceAll('LOG', JSON.stringify(log)));
	const projectExtension = join(projectDir, 'proj.mjs');
	writeFileSync(projectExtension, project);
	return {box, env: {I_EXTENSIONS_DIR: userDir}, log, projectExtension};
}

const logged = (log: string) =>
	existsSync(log)
		? readFileSync(log, 'utf8')
				.split('\n')
				.filter(Boolean)
				.map(line => JSON.parse(line) as [string, any])
		: [];

/** A user extension that logs the given tags' payloads. */
const recorder = (tags: string[]) => `
	import {appendFileSync} from 'node:fs';
	export default api => { for (const tag of ${JSON.stringify(tags)}) api.registerEventHandler(tag, event => { appendFileSync(LOG, JSON.stringify([tag, event]) + '\\n'); }); };
`;

/** The whole buffer with every run of white space as one space: a notice Ink wrapped at a space reads as one line. */
const text = (run: TerminalRun) => run.lines().join(' ').replaceAll(/\s+/g, ' ');

async function answerTrust(run: TerminalRun, key: string): Promise<void> {
	await run.waitFor(screen => screen.includes('Trust this workspace?') && screen.includes('[y] trust and load it'), 'the trust question');
	// Keys typed right after it appears are taken for typeahead.
	await sleep(TYPEAHEAD_GUARD_MS + 150);
	run.type(key);
	await run.ready();
}

/** Sends one message and waits for the answer; returns the tool names the model was offered. */
async function offeredTools(run: TerminalRun, answer: string): Promise<string[]> {
	const sent = mock.requests.length;
	mock.enqueue({text: answer});
	run.type('hello\r');
	await run.waitFor(screen => screen.includes(answer), 'the answer');
	return mock.requests[sent]!.body.tools.map((tool: any) => tool.function.name);
}

test('the trust question comes once: a throwing ProjectTrust leaves it to the person, yes loads the project tool and is remembered; UiPromptStart/End wrap it', async () => {
	const at = place({
		policy: `export default api => api.registerEventHandler('ProjectTrust', () => { throw new Error('policy bug'); });`,
		watcher: recorder(['UiPromptStart', 'UiPromptEnd']),
	});
	const first = await startChat(mock, {box: at.box, env: at.env, ready: false});
	try {
		await answerTrust(first.run, 'y');
		assert.ok((await offeredTools(first.run, 'First answer.')).includes('proj_tool'));
		assert.match(text(first.run), /extension policy: ProjectTrust handler failed: policy bug; it decides nothing/);
		assert.deepEqual(logged(at.log), [
			['UiPromptStart', {id: 'trust', kind: 'trust', workspace: at.box.workspace, extensions: [at.projectExtension], mcpServers: [], allowRules: [], sandboxSettings: [], modelEndpoints: []}],
			['UiPromptEnd', {id: 'trust', kind: 'trust', answer: 'yes'}],
		]);
	} finally {
		await first.run.close();
	}

	const second = await startChat(mock, {box: at.box, env: at.env});
	try {
		assert.ok((await offeredTools(second.run, 'Second answer.')).includes('proj_tool'));
		assert.doesNotMatch(second.run.output(), /Trust this workspace/);
	} finally {
		await second.run.close();
	}
});

test('no skips the project extension, says how to undo it, and is remembered', async () => {
	const at = place();
	const skipped = new RegExp(
		`not trusted, so its own extension was skipped: ${at.projectExtension}; it was not trusted when asked; pass --trust-project to load it, or delete \\S+trust\\.json to be asked again`,
	);
	const first = await startChat(mock, {box: at.box, ready: false});
	try {
		await answerTrust(first.run, 'n');
		assert.ok(!(await offeredTools(first.run, 'Without it.')).includes('proj_tool'));
		assert.match(text(first.run), skipped);
	} finally {
		await first.run.close();
	}

	const second = await startChat(mock, {box: at.box});
	try {
		assert.ok(!(await offeredTools(second.run, 'Still without it.')).includes('proj_tool'));
		assert.match(text(second.run), skipped);
		assert.doesNotMatch(second.run.output(), /Trust this workspace/);
	} finally {
		await second.run.close();
	}
});

test('Ctrl-C at the trust question leaves with 130 and answers nothing: the next start asks again', async () => {
	const at = place();
	const first = await startChat(mock, {box: at.box, ready: false});
	try {
		await first.run.waitFor(screen => screen.includes('Trust this workspace?'), 'the trust question');
		first.run.type('\u0003');
		assert.equal((await first.run.exit()).exitCode, 130);
	} finally {
		await first.run.close();
	}

	const second = await startChat(mock, {box: at.box, ready: false});
	try {
		await answerTrust(second.run, 'y');
	} finally {
		await second.run.close();
	}
});

test("a user extension's ProjectTrust refusal is not asked about: the project code is skipped and the notice names it", async () => {
	const at = place({policy: `export default api => api.registerEventHandler('ProjectTrust', () => ({trusted: false, reason: 'not a company checkout'}));`});
	const {run} = await startChat(mock, {box: at.box, env: at.env});
	try {
		assert.ok(!(await offeredTools(run, 'Refused.')).includes('proj_tool'));
		assert.match(text(run), /its own extension was skipped: .*proj\.mjs; extension policy refused it \(ProjectTrust: not a company checkout\)/);
		assert.doesNotMatch(run.output(), /Trust this workspace/);
	} finally {
		await run.close();
	}
});

/**
 * `i` in a pseudo-terminal with its stderr in a file: what it writes to the
 * terminal (stdout) is then only the screen's.
 */
function startWithStderrApart(box: Sandbox, env: NodeJS.ProcessEnv, args: string[] = []): {run: TerminalRun; stderr: () => string} {
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: MODEL, max_retries: 0});
	const file = join(box.root, 'stderr.txt');
	const run = spawnInTerminal('/bin/sh', ['-c', 'err=$1; shift; exec "$@" 2>"$err"', 'sh', file, process.execPath, cliPath, '-C', box.workspace, ...args], {env: {...box.env, ...env}, cwd: box.workspace});
	return {run, stderr: () => (existsSync(file) ? readFileSync(file, 'utf8') : '')};
}

test('a BeforeTuiStart veto exits 3 before the terminal is touched, with the reason on stderr; a trusted project extension may veto too', async () => {
	const cases = [
		{
			at: place({gate: `export default api => api.registerEventHandler('BeforeTuiStart', () => ({abort: true, reason: 'connect the VPN first'}))`}),
			args: [],
			stderr: /^i: extension gate stopped the start before the chat screen \(BeforeTuiStart\): connect the VPN first\n$/,
		},
		{
			at: place({gate: `export default api => api.registerEventHandler('BeforeTuiStart', () => api.ABORT)`}),
			args: [],
			stderr: /^i: extension gate stopped the start before the chat screen \(BeforeTuiStart\)\n$/,
		},
		{
			at: place({}, `export default api => api.registerEventHandler('BeforeTuiStart', event => ({abort: true, reason: 'terminal of ' + event.columns + 'x' + event.rows + ' in ' + event.workspace}))`),
			args: ['--trust-project'],
			stderr: /^i: extension proj stopped the start before the chat screen \(BeforeTuiStart\): terminal of 100x30 in \/\S+\/workspace\n$/,
		},
	];
	for (const {at, args, stderr: expected} of cases) {
		const {run, stderr} = startWithStderrApart(at.box, at.env, args);
		try {
			const {exitCode} = await run.exit();
			assert.equal(exitCode, 3);
			assert.match(stderr(), expected);
			// Nothing at all reached the terminal: no alternate screen, no cursor hidden, no bracketed paste, no frame.
			assert.equal(run.output(), '');
		} finally {
			await run.close();
		}
	}
});

test('a BeforeTuiStart handler that does not answer is skipped after 5 s: a timeout is no veto, and the screen starts', async () => {
	const at = place({slow: `export default api => api.registerEventHandler('BeforeTuiStart', () => new Promise(() => {}))`});
	const started = Date.now();
	const {run} = await startChat(mock, {box: at.box, env: at.env, args: ['--trust-project']});
	try {
		const waited = Date.now() - started;
		assert.ok(waited >= BEFORE_TUI_START_TIMEOUT_MS - 100, `the screen came after ${waited} ms`);
		assert.match(text(run), /extension slow: BeforeTuiStart handler did not answer within 5 s; skipped/);
		assert.ok((await offeredTools(run, 'Started anyway.')).includes('proj_tool'));
	} finally {
		await run.close();
	}
});

test('Ctrl-C while a BeforeTuiStart handler keeps the screen waiting leaves at once with 130: the terminal is not raw before the screen reads it', async () => {
	const at = place({slow: `export default api => api.registerEventHandler('BeforeTuiStart', () => new Promise(() => {}))`});
	const {run} = await startChat(mock, {box: at.box, env: at.env, args: ['--trust-project'], ready: false});
	try {
		// Within the handler's 5 s: nothing is drawn before BeforeTuiStart has answered.
		await sleep(1500);
		const pressed = Date.now();
		run.type('\u0003');
		assert.equal((await run.exit()).exitCode, 130);
		assert.ok(Date.now() - pressed < BEFORE_TUI_START_TIMEOUT_MS - 1500, 'left before the handler timed out');
	} finally {
		await run.close();
	}
});

test('UiPromptStart and UiPromptEnd wrap an approval: the tool, its title and the answer', async () => {
	const at = place({watcher: recorder(['UiPromptStart', 'UiPromptEnd'])});
	const {run} = await startChat(mock, {box: at.box, env: at.env, args: ['--trust-project']});
	try {
		mock.enqueue({toolCalls: [{id: 'call_w', name: 'write', arguments: JSON.stringify({files: [{path: 'note.txt', content: 'hi\n'}]})}]}, {text: 'Written.'});
		run.type('write a note\r');
		await run.waitFor(screen => screen.includes('Allow? ') && screen.includes('[y] allow once'), 'the approval question');
		await sleep(TYPEAHEAD_GUARD_MS + 150);
		run.type('y');
		await run.waitFor(screen => screen.includes('Written.'), 'the answer');
		const events = logged(at.log);
		assert.equal(events.length, 2, JSON.stringify(events));
		const [[startTag, start], [endTag, end]] = events as [[string, any], [string, any]];
		assert.equal(startTag, 'UiPromptStart');
		assert.deepEqual({...start, title: undefined}, {id: 'call_w', kind: 'approval', tool: 'write', title: undefined});
		assert.match(start.title, /note\.txt/);
		assert.deepEqual([endTag, end], ['UiPromptEnd', {id: 'call_w', kind: 'approval', answer: 'once'}]);
	} finally {
		await run.close();
	}
});

test("an extension's console output becomes notices; the frame stays whole", async () => {
	const at = place({
		chatty: `export default api => { console.log('hello from register'); api.registerEventHandler('AgentStart', () => { console.error('warned at', 'AgentStart'); }); };`,
	});
	const {run} = await startChat(mock, {box: at.box, env: at.env, args: ['--trust-project']});
	try {
		await offeredTools(run, 'Answered.');
		await run.waitFor(screen => screen.includes('! console: warned at AgentStart'), 'the console.error as a warning');
		assert.match(text(run), /· console: hello from register/);
		const screen = run.screen();
		assert.ok(
			screen.some(row => row.startsWith(`${MODEL} · `) && row.endsWith('/help')),
			`the status line is intact:\n${screen.join('\n')}`,
		);
	} finally {
		await run.close();
	}
});
