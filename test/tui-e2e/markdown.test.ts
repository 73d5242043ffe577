// The model's Markdown on the chat screen (issue 17 item 1) in a real
// pseudo-terminal against the mock provider: drawn, each line once in the
// scrollback, OSC 8 on and off, a hostile link, NO_COLOR; and -p, --json and
// line mode keeping the model's text byte for byte.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {importRecorder} from '../helpers/import-log.js';
import {cliPath} from '../helpers/cli.js';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {jsonEvents, makeSandbox, runCli} from '../helpers/cli.js';

const markdownChunk = /\/bundle\/render-markdown-[A-Z0-9]+\.js$/;
import type {TerminalRun} from '../helpers/pty.js';
import {MODEL, startChat} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const ANSWER = [
	'# Build notes',
	'',
	'Run **`npm test`** first; see [the guide](https://example.com/docs) for *why*.',
	'',
	'- step one',
	'  - a nested detail',
	'- [x] checked off',
	'',
	'| 名前 | size |',
	'|:--|--:|',
	'| 中文字符 | 12 |',
	'',
	'```ts',
	'const total = items.reduce((sum, item) => sum + item.size, 0);',
	'\treturn total; // tab-indented',
	'```',
	'',
	'> quoted last words',
].join('\n');

const idle = async (run: TerminalRun) => run.waitFor(screen => screen.split('\n').some(row => row.endsWith('/help')), 'the idle status line');

async function ask(env: NodeJS.ProcessEnv, text: string, cols = 100): Promise<{run: TerminalRun; since: number}> {
	const {run} = await startChat(mock, {args: ['--no-logo'], cols, env});
	const since = run.output().length;
	mock.enqueue({text});
	run.type('show me\r');
	await run.waitFor(screen => screen.includes('quoted last words') || screen.includes('END'), 'the end of the answer', {whole: true});
	await idle(run);
	return {run, since};
}

/** The transcript's rows from the person's message to the editor. */
function transcript(run: TerminalRun): string[] {
	const lines = run.lines();
	return lines.slice(
		lines.indexOf('› show me'),
		lines.findLastIndex(line => line.startsWith('› Ask i anything')),
	);
}

test('a Markdown answer is drawn, not shown raw, and each of its lines is written to the scrollback once', async () => {
	const {run, since} = await ask({I_HYPERLINKS: '0'}, ANSWER);
	try {
		const rows = transcript(run);
		const expected = [
			'Build notes',
			'Run npm test first; see the guide (https://example.com/docs) for why.',
			'• step one',
			'  ◦ a nested detail',
			'[x] checked off',
			'┌──────────┬──────┐',
			'│ 名前     │ size │',
			'│ 中文字符 │   12 │',
			`── ts ${'─'.repeat(94)}`,
			'const total = items.reduce((sum, item) => sum + item.size, 0);',
			'    return total; // tab-indented',
			'│ quoted last words',
		];
		for (const line of expected) assert.equal(rows.filter(row => row.trimEnd() === line).length, 1, `${JSON.stringify(line)} once in ${JSON.stringify(rows, null, 1)}`);
		assert.ok(!rows.some(row => /```|^#|\*\*|^- /.test(row)), 'no Markdown mark left');
		// Written once: the frames after the question wrote the heading, a finished block, exactly one time. The last block
		// is the open one until the turn ends, so a frame may draw it in the live area before it moves to the scrollback:
		// the rows above hold it once, which is what the scrollback must.
		assert.equal(run.output().slice(since).split('Build notes').length - 1, 1);
	} finally {
		await run.close();
	}
});

test('OSC 8 with I_HYPERLINKS=1: the link carries its target, a hostile target stays inside its sequence; I_HYPERLINKS=0: the URL in the text', async () => {
	const hostile = 'Open [the guide](https://example.com/docs) or [this](<https://evil.example/x\u001B]8;;https://other\u0007 y>).\n\nEND';
	const on = await ask({I_HYPERLINKS: '1'}, hostile);
	try {
		const output = on.run.output().slice(on.since);
		assert.ok(output.includes('\u001B]8;;https://example.com/docs\u001B\\'), 'the guide link as OSC 8');
		assert.ok(output.includes('\u001B]8;;https://evil.example/x%EF%BF%BD]8;;https://other%EF%BF%BD%20y\u001B\\'), 'the hostile target percent-encoded in one sequence');
		assert.ok(!output.includes('\u001B]8;;https://other'), 'no sequence of the model’s own');
		assert.ok(!output.includes('\u0007'), 'no BEL from the model');
		assert.ok(transcript(on.run).includes('Open the guide or this.'));
	} finally {
		await on.run.close();
	}

	const off = await ask({I_HYPERLINKS: '0'}, hostile);
	try {
		assert.ok(!off.run.output().slice(off.since).includes('\u001B]8;'), 'no OSC 8 at all');
		assert.ok(transcript(off.run).some(row => row.startsWith('Open the guide (https://example.com/docs) or this (https://evil.example/x�]8;;https://other� y).')));
	} finally {
		await off.run.close();
	}
});

test('NO_COLOR: the same rows as in colour, and not one colour code on the screen', async () => {
	const colored = await ask({I_HYPERLINKS: '0'}, ANSWER);
	const rows = transcript(colored.run);
	await colored.run.close();
	const plain = await ask({NO_COLOR: '1'}, ANSWER);
	try {
		assert.deepEqual(transcript(plain.run), rows);
		assert.doesNotMatch(plain.run.output().slice(plain.since), /\u001B\[(?:[0-9;]*;)?(?:3[0-7]|9[0-7]|38)[;m]/);
		assert.ok(!plain.run.output().includes('\u001B]8;'));
	} finally {
		await plain.run.close();
	}
});

test('-p, --json and line mode keep a Markdown-heavy answer byte for byte', async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: MODEL, max_retries: 0});
	const answer = `${ANSWER}\n\n**unclosed emphasis and a trailing space \n\`\`\`\nunclosed fence\twith a tab`;
	mock.enqueue({text: answer});
	const printed = await runCli(['-p', 'show me', '-C', box.workspace], {env: box.env});
	assert.equal(printed.code, 0, printed.stderr);
	assert.equal(printed.stdout, `${answer}\n`);

	mock.enqueue({text: answer});
	const json = await runCli(['-p', 'show me', '--json', '-C', box.workspace], {env: box.env});
	assert.equal(json.code, 0, json.stderr);
	const text = jsonEvents(json.stdout)
		.filter(event => event.type === 'text_delta')
		.map(event => event.text as string)
		.join('');
	assert.equal(text, answer);

	mock.enqueue({text: answer});
	const line = await runCli(['-C', box.workspace], {env: box.env, input: 'show me\n'});
	assert.equal(line.code, 0, line.stderr);
	assert.equal(line.stdout, `${answer}\n`);
});

test('the first frame does not load the Markdown code: it is a chunk of its own, outside what the chat screen imports statically, loaded before the first message; I_MARKDOWN=0 never loads it', async () => {
	const bundle = dirname(cliPath);
	const chunks = readdirSync(bundle);
	const runTui = chunks.find(name => /^run-tui-[A-Z0-9]+\.js$/.test(name))!;
	// Everything the screen's first frame can need: cli.js and the run-tui chunk with their static imports.
	const seen = new Set<string>();
	const visit = (name: string) => {
		if (seen.has(name)) return;
		seen.add(name);
		const code = readFileSync(join(bundle, name), 'utf8');
		for (const match of code.matchAll(/^import\s*(?:[^'"()]*?from\s*)?["']\.\/([^"']+)["']/gm)) visit(match[1]!);
	};

	visit('cli.js');
	visit(runTui);
	assert.ok(seen.size > 2, [...seen].join(', '));
	for (const name of seen) {
		const code = readFileSync(join(bundle, name), 'utf8');
		assert.ok(!code.includes('hljs-') && !code.includes('registerLanguage') && !code.includes('inlineQueue'), `${name} holds Markdown or highlighter code`);
	}

	for (const [env, expected] of [
		[{}, 1],
		[{I_MARKDOWN: '0'}, 0],
	] as const) {
		const box = makeSandbox();
		const log = join(box.root, 'imports.log');
		const {run} = await startChat(mock, {box, env: {...env, NODE_OPTIONS: `--import=${importRecorder}`, I_TEST_IMPORT_LOG: log}});
		try {
			assert.equal(
				readFileSync(log, 'utf8')
					.split('\n')
					.filter(url => markdownChunk.test(url)).length,
				expected,
			);
		} finally {
			await run.close();
		}
	}
});
