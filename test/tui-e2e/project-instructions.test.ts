// Project instructions in the chat screen (issue 17 items 3 and 6): the
// session sends the AGENTS.md it started with until /reload reads the file
// again (and /clear's new session starts with it); /context lists each part
// of the next request with numbers that add up and grow with a message;
// /init is an ordinary turn whose write asks for approval.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {TYPEAHEAD_GUARD_MS} from '../../components/Approval.js';
import {makeSandbox} from '../helpers/cli.js';
import type {TerminalRun} from '../helpers/pty.js';
import {lastUserText, startChat} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/** Turns refused so far because one was still running: the answer is on the screen before its turn has ended. */
const refusals = (run: TerminalRun) => run.lines().filter(line => line.includes('a turn is running: wait for it')).length;

/** Types a line and Enter once no turn runs: Enter while the last turn still ends is refused, the text kept in the editor, so Enter is pressed again. */
async function typeWhenIdle(run: TerminalRun, line: string): Promise<void> {
	let keys = line;
	for (let attempt = 0; attempt < 50; attempt++) {
		const before = refusals(run);
		run.type(keys);
		await sleep(150);
		if (refusals(run) === before) return;
		keys = '\r';
	}

	throw new Error(`${JSON.stringify(line)} was refused 50 times: a turn never ended`);
}

async function send(run: TerminalRun, text: string, answer: string): Promise<string> {
	mock.enqueue({text: answer});
	const sent = mock.requests.length;
	await typeWhenIdle(run, `${text}\r`);
	await run.waitFor(screen => screen.includes(answer) && screen.includes('/help'), `the answer ${answer}`);
	return mock.requests[sent]!.body.messages[0].content as string;
}

/** The rows of the last /context notice in the buffer, as [label, tokens]. */
function contextRows(run: TerminalRun): Array<[string, number]> {
	const lines = run.lines();
	// The notice's first row; Ink wraps its long heading into lines of its own.
	const start = lines.findLastIndex(line => line.startsWith('system prompt '));
	const rows: Array<[string, number]> = [];
	for (const line of lines.slice(start)) {
		const match = /^(.+?)\s{2,}([\d,]+)(?:\s+[\d.]+%)?$/.exec(line.trimEnd());
		if (!match) break;
		rows.push([match[1]!, Number(match[2]!.replaceAll(',', ''))]);
	}

	return rows;
}

async function context(run: TerminalRun, after: number): Promise<Array<[string, number]>> {
	await typeWhenIdle(run, '/context\r');
	await run.waitUntil(() => run.lines().filter(line => /^total \(bytes\)\s/.test(line)).length > after && contextRows(run).some(([label]) => label === 'total (bytes)'), 'the /context table');
	return contextRows(run);
}

test('/reload sends the edited AGENTS.md, /clear starts with it; /context adds up and grows with a message', async () => {
	const box = makeSandbox();
	const file = join(box.workspace, 'AGENTS.md');
	writeFileSync(file, 'RULE ONE: tabs.\n');
	const {run} = await startChat(mock, {box});
	try {
		assert.ok((await send(run, 'first', 'answer one')).includes(`## ${file}\n\nRULE ONE: tabs.`));
		writeFileSync(file, 'RULE TWO: spaces.\n');
		// The session's prompt stays as it started: the cache keeps its prefix.
		const kept = await send(run, 'second', 'answer two');
		assert.ok(kept.includes('RULE ONE') && !kept.includes('RULE TWO'), kept);

		const rows = await context(run, 0);
		const labels = rows.map(([label]) => label);
		assert.deepEqual(labels.slice(0, 1), ['system prompt']);
		// What the session holds (the file as it was read), whatever the file says now.
		assert.ok(labels.includes(`AGENTS.md ${file}`), labels.join('\n'));
		assert.ok(
			labels.some(label => /^tools \(\d+ schemas\)$/.test(label)),
			labels.join('\n'),
		);
		assert.ok(labels.includes('messages (4)'), labels.join('\n'));
		const total = rows.find(([label]) => label === 'total (bytes)')![1];
		assert.equal(
			rows.filter(([label]) => label !== 'total (bytes)').reduce((sum, [, tokens]) => sum + tokens, 0),
			total,
		);
		assert.ok(run.lines().some(line => line.includes('no context window is known')));

		run.type('/reload\r');
		await run.waitFor(screen => screen.includes("AGENTS.md: 1 file read; the session's system prompt now holds them") && /reloaded \d+ extension/.test(screen), 'the reload notices');
		const reloaded = await send(run, 'third', 'answer three');
		assert.ok(reloaded.includes(`## ${file}\n\nRULE TWO: spaces.`) && !reloaded.includes('RULE ONE'), reloaded);

		const after = await context(run, 1);
		assert.ok(
			after.some(([label]) => label === `AGENTS.md ${file}`),
			after.map(([label]) => label).join('\n'),
		);
		assert.ok(after.some(([label]) => label === 'messages (6)'));
		assert.ok(after.find(([label]) => label === 'total (bytes)')![1] > total, 'the total grew with the messages');
		assert.equal(
			after.filter(([label]) => label !== 'total (bytes)').reduce((sum, [, tokens]) => sum + tokens, 0),
			after.find(([label]) => label === 'total (bytes)')![1],
		);

		writeFileSync(file, 'RULE THREE: both.\n');
		run.type('/clear\r');
		await run.waitFor(screen => /the\s+previous\s+one\s+stays\s+saved/.test(screen), 'the new session');
		const fresh = await send(run, 'fourth', 'answer four');
		assert.ok(fresh.includes('RULE THREE: both.'), fresh);
		run.type('/exit\r');
		assert.equal((await run.exit()).exitCode, 0);
	} finally {
		await run.close();
	}
});

test('/context lists a CLAUDE.md read in place of AGENTS.md, and the skill and prompt folders found (.claude/skills, .pi/prompts)', async () => {
	const box = makeSandbox();
	// The standard profile's skills and prompts modules read the folders.
	writeFileSync(join(box.configDir, 'builtin.json'), JSON.stringify({builtin_profile: 'configured', tools: []}));
	writeFileSync(join(box.configDir, 'plugins.json'), JSON.stringify({profile: 'standard', disabled: ['approval', 'budget', 'compact', 'cache', 'memory', 'web', 'search']}));
	const file = join(box.workspace, 'CLAUDE.md');
	writeFileSync(file, 'CLAUDE RULE: tabs.\n');
	mkdirSync(join(box.workspace, '.claude', 'skills', 'tidy'), {recursive: true});
	writeFileSync(join(box.workspace, '.claude', 'skills', 'tidy', 'SKILL.md'), '---\nname: tidy\ndescription: Tidy up.\n---\nBody.\n');
	mkdirSync(join(box.workspace, '.pi', 'prompts'), {recursive: true});
	const {run} = await startChat(mock, {box, cols: 200, config: {plugins: ['builtin.json']}});
	try {
		assert.ok((await send(run, 'first', 'answer one')).includes(`## ${file}\n\nCLAUDE RULE: tabs.`));
		const labels = (await context(run, 0)).map(([label]) => label);
		assert.ok(labels.includes(`CLAUDE.md ${file}`), labels.join('\n'));
		await run.waitFor(screen => screen.includes('Prompt template folders found'), 'the folders under the /context table');
		const lines = run.lines();
		const skills = lines.findLastIndex(line => line.startsWith('Skill folders found'));
		assert.ok(skills >= 0, lines.join('\n'));
		assert.match(lines[skills + 1]!, new RegExp(`^  ${join(box.workspace, '.claude/skills').replaceAll('.', '\\.')}  \\(the workspace\\)`));
		const prompts = lines.findLastIndex(line => line.startsWith('Prompt template folders found'));
		assert.ok(lines[prompts + 1]!.includes(join(box.workspace, '.pi/prompts')), lines.join('\n'));
		run.type('/exit\r');
		assert.equal((await run.exit()).exitCode, 0);
	} finally {
		await run.close();
	}
});

test('/init is an ordinary turn: the model gets the prompt, and its write of AGENTS.md asks for approval', async () => {
	const {run, box} = await startChat(mock);
	try {
		const content = '# Project\n\n- Test: npm test\n';
		mock.enqueue({text: 'Writing it.', toolCalls: [{id: 'call_init', name: 'write', arguments: JSON.stringify({files: [{path: 'AGENTS.md', content}]})}]}, {text: 'AGENTS.md written.'});
		const sent = mock.requests.length;
		run.type('/init\r');
		await run.waitFor(screen => screen.includes('Allow? Write 1 file: AGENTS.md') && screen.includes('[y] allow once'), 'the approval question');
		const prompt = lastUserText(mock.requests[sent]!.body);
		assert.match(prompt, /write an AGENTS\.md file at the root of the workspace, or improve the one that is there/);
		assert.ok(
			run.screen().some(row => row.includes('/init')),
			'the transcript shows /init, not the whole prompt',
		);
		await sleep(TYPEAHEAD_GUARD_MS + 150);
		run.type('y');
		await run.waitFor(screen => screen.includes('AGENTS.md written.'), 'the second answer');
		assert.equal(readFileSync(join(box.workspace, 'AGENTS.md'), 'utf8'), content);
		run.type('/exit\r');
		assert.equal((await run.exit()).exitCode, 0);
	} finally {
		await run.close();
	}
});
