// The chat screen streaming a long answer (issue 4): `i` in a pseudo-terminal
// against an endpoint sending 100k tokens at about 2000 tokens/s, against a
// baseline of bare node printing the same stream in the same terminal.
// Figures: CPU seconds per 1000 tokens and CPU share of one core while
// streaming (the whole process tree), frames per second, bytes written to the
// terminal per token, launch to first frame, CPU while idle afterwards. The
// scrollback is checked too: every line of the answer once, in order.
import {mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync} from 'node:fs';
import os, {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {processCpuMs, spawnInTerminal, type TerminalRun} from '../test/helpers/pty.js';
import {startPacedServer} from './paced-server.js';
import {median} from './measure.js';

const TOKENS = Number(process.env.BENCH_TUI_TOKENS ?? 100_000);
const RATE = 2000;
const IDLE_MS = 5000;
const FIRST_FRAME_LAUNCHES = 7;
const COLUMNS = 120;
const ROWS = 40;
const cli = fileURLToPath(new URL('../../bin/i.js', import.meta.url));
const printStream = fileURLToPath(new URL('../../bench/print-stream.mjs', import.meta.url));

const words = ['the', 'model', 'streams', 'a', 'long', 'answer', 'with', 'code,', 'prose', 'and', '中文', '字符', 'mixed', 'in;', 'every', 'line', 'ends', 'here.'];

/** Tokens of a word and its space; every 16th ends a numbered line, so the scrollback can be checked line by line. */
function makeTokens(count: number): {tokens: string[]; lines: string[]} {
	const tokens: string[] = [];
	const lines: string[] = [];
	let line = '';
	for (let index = 0; index < count; index++) {
		const last = index % 16 === 15 || index === count - 1;
		const token = index % 16 === 0 ? `L${lines.length + 1}: ` : last ? `${words[index % words.length]}\n` : `${words[index % words.length]} `;
		tokens.push(token);
		line += token;
		if (last) {
			lines.push(line.slice(0, -1));
			line = '';
		}
	}

	return {tokens, lines};
}

/** CPU time of a process and all its descendants (workers included), in milliseconds. */
function treeCpuMs(pid: number): number {
	let total = 0;
	try {
		total = processCpuMs(pid);
		for (const child of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean)) total += treeCpuMs(Number(child));
	} catch {
		// A process that just ended: its time is gone with it.
	}

	return total;
}

const count = (text: string, what: string) => text.split(what).length - 1;
const sleep = async (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

interface Figures {
	firstFrameMs: number;
	streamMs: number;
	cpuMs: number;
	bytes: number;
	frames: number;
	idleCpuMs: number;
}

/** The streaming figures of one launch; the first frame is measured apart, over several launches (`launches`). */
async function measure(start: () => TerminalRun, begin: (run: TerminalRun) => Promise<void>, lastLine: string, isIdle: (run: TerminalRun) => boolean): Promise<{figures: Figures; run: TerminalRun}> {
	const run = start();
	await begin(run);
	const begun = performance.now();
	const cpuBefore = treeCpuMs(run.pid);
	const bytesBefore = Buffer.byteLength(run.output());
	const framesBefore = count(run.output(), '\u001B[?2026h');
	await run.waitForOutput(output => output.includes(lastLine), 'the last line of the answer', {timeoutMs: (TOKENS / RATE) * 1000 * 3 + 30_000});
	const streamMs = performance.now() - begun;
	await run.waitUntil(() => isIdle(run), 'the end of the turn', {timeoutMs: 60_000});
	const cpuAfter = treeCpuMs(run.pid);
	const output = run.output();
	const figures: Figures = {
		firstFrameMs: Number.NaN,
		streamMs,
		cpuMs: cpuAfter - cpuBefore,
		bytes: Buffer.byteLength(output) - bytesBefore,
		frames: count(output, '\u001B[?2026h') - framesBefore,
		idleCpuMs: 0,
	};
	await sleep(IDLE_MS);
	figures.idleCpuMs = treeCpuMs(run.pid) - cpuAfter;
	return {figures, run};
}

export async function benchTui(): Promise<void> {
	const {tokens, lines} = makeTokens(TOKENS);
	const server = await startPacedServer(tokens, RATE);
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-bench-tui-')));
	const workspace = join(root, 'workspace');
	mkdirSync(workspace);
	mkdirSync(join(root, 'config'));
	writeFileSync(join(root, 'config', 'config.json'), JSON.stringify({protocol: 'openai', base_url: server.baseUrl, model: 'bench', api_key_env: 'BENCH_KEY'}));
	const env = {PATH: process.env.PATH, HOME: root, I_CONFIG_DIR: join(root, 'config'), I_DATA_DIR: join(root, 'data'), I_CACHE_DIR: join(root, 'cache'), I_RUNTIME_DIR: join(root, 'runtime'), BENCH_KEY: 'k'};
	const terminal = {env, cwd: workspace, cols: COLUMNS, rows: ROWS, scrollback: lines.length + 200};
	const lastLine = lines.at(-1)!;

	console.log('');
	console.log(`chat screen: ${TOKENS} tokens at ${RATE} tokens/s in a ${COLUMNS}×${ROWS} pseudo-terminal`);
	const baseline = await measure(
		() => spawnInTerminal(process.execPath, [printStream, server.baseUrl], terminal),
		async run => {
			await run.waitForOutput(output => output.includes('> '), 'the prompt');
			run.type('go\r');
		},
		lastLine,
		run => run.output().endsWith('\r\n> '),
	);
	await baseline.run.close();

	const i = await measure(
		() => spawnInTerminal(process.execPath, [cli, '-C', workspace], terminal),
		async run => {
			await run.ready({timeoutMs: 30_000});
			run.type('go\r');
		},
		lastLine,
		run => run.screen().some(row => row.endsWith('/help')),
	);

	// Launch to first frame once more, several times each, for a median (one launch is at the machine's mercy).
	const launches = async (start: (onData: (data: string) => void) => TerminalRun, isFirstFrame: (output: string) => boolean): Promise<number> => {
		const times: number[] = [];
		for (let launch = 0; launch < FIRST_FRAME_LAUNCHES; launch++) {
			const launched = performance.now();
			let seen = '';
			let first = Number.NaN;
			const run = start(data => {
				seen += data;
				if (Number.isNaN(first) && isFirstFrame(seen)) first = performance.now() - launched;
			});
			await run.waitUntil(() => !Number.isNaN(first), 'the first frame', {timeoutMs: 30_000});
			await run.close();
			times.push(first);
		}

		return median(times);
	};

	baseline.figures.firstFrameMs = await launches(
		onData => spawnInTerminal(process.execPath, [printStream, server.baseUrl], {...terminal, onData}),
		output => output.length > 0,
	);
	i.figures.firstFrameMs = await launches(
		onData => spawnInTerminal(process.execPath, [cli, '-C', workspace], {...terminal, onData}),
		output => output.includes('/help'),
	);

	// Nothing lost, nothing twice: each line of the answer once in the scrollback, in order.
	const shown = i.run.lines().filter(line => /^L\d+: /.test(line));
	const intact = shown.length === lines.length && shown.every((line, index) => line === lines[index]);
	await i.run.close();
	await server.close();

	const perThousand = (figures: Figures) => figures.cpuMs / TOKENS; // ms per token = s per 1000 tokens
	const share = (figures: Figures) => (figures.cpuMs / figures.streamMs) * 100;
	const fps = (figures: Figures) => figures.frames / (figures.streamMs / 1000);
	const rows = [
		[`launch to first frame, ms (median of ${FIRST_FRAME_LAUNCHES})`, baseline.figures.firstFrameMs, i.figures.firstFrameMs, (i.figures.firstFrameMs / baseline.figures.firstFrameMs).toFixed(2) + '×'],
		['CPU s per 1000 tokens', perThousand(baseline.figures), perThousand(i.figures), (perThousand(i.figures) / perThousand(baseline.figures)).toFixed(1) + '×'],
		['CPU while streaming, % of one core', share(baseline.figures), share(i.figures), ''],
		['frames per second (synchronized updates)', Number.NaN, fps(i.figures), ''],
		['bytes to the terminal per token', baseline.figures.bytes / TOKENS, i.figures.bytes / TOKENS, (i.figures.bytes / baseline.figures.bytes).toFixed(2) + '×'],
		[`CPU while idle, ms per s (over ${IDLE_MS / 1000} s)`, baseline.figures.idleCpuMs / (IDLE_MS / 1000), i.figures.idleCpuMs / (IDLE_MS / 1000), ''],
	] as const;
	console.log('');
	console.log('| measure | bare node | i | ratio |');
	console.log('|---|---:|---:|---:|');
	const cell = (value: number) => (Number.isNaN(value) ? '—' : value < 10 ? value.toFixed(3) : value.toFixed(1));
	for (const [name, base, ours, ratio] of rows) console.log(`| ${name} | ${cell(base)} | ${cell(ours)} | ${ratio} |`);
	console.log('');
	console.log(
		`stream took ${(i.figures.streamMs / 1000).toFixed(1)} s; scrollback ${intact ? `intact: ${lines.length} lines once, in order` : `NOT intact: ${shown.length} of ${lines.length} lines, or out of order`}`,
	);
	console.log(
		`targets: first frame ≤ 300 ms (${i.figures.firstFrameMs.toFixed(0)}), CPU ≤ 30% of one core while streaming (${share(i.figures).toFixed(1)}%), idle CPU ≈ 0 (${cell(i.figures.idleCpuMs / (IDLE_MS / 1000))} ms/s), ≤ 30 fps (${fps(i.figures).toFixed(1)})`,
	);
}

const MARKDOWN_LINES = 2000;
const MARKDOWN_CODE_BLOCKS = 50;
const MARKDOWN_RATE = 4000;

/**
 * A 2000-line Markdown answer with 50 fenced code blocks (TypeScript,
 * Python, shell in turn) between headings, paragraphs, lists and tables,
 * as tokens of about a word or a line of code; its last line says END.
 */
function markdownAnswer(): {tokens: string[]; lines: number} {
	const languages = ['ts', 'python', 'sh'];
	const code = (language: string, index: number) =>
		language === 'ts'
			? [`export function step${index}(items: Item[]): number {`, `\tconst total = items.reduce((sum, item) => sum + item.size, 0); // step ${index}`, '\treturn total * 2;', '}']
			: language === 'python'
				? [`def step_${index}(items):`, `    """Step ${index}: the sum, doubled."""`, '    total = sum(item.size for item in items)', '    return total * 2']
				: [`for file in src/*.ts; do  # step ${index}`, '  wc -l "$file" | sort -n', 'done', 'echo "done"'];
	const lines: string[] = [];
	const perBlock = Math.floor(MARKDOWN_LINES / MARKDOWN_CODE_BLOCKS);
	for (let block = 0; block < MARKDOWN_CODE_BLOCKS; block++) {
		const language = languages[block % languages.length]!;
		const section = [
			`## Part ${block + 1}: the ${language} step`,
			'',
			`This part explains **step ${block + 1}** with \`inline code\`, a [link](https://example.com/${block}) and *emphasis*;`,
			'the sentence goes on over a second line of the same paragraph, 中文 included.',
			'',
			'- the first point',
			'- the second point',
			'  - a nested one',
			'',
			'| name | 名前 | size |',
			'|:--|:-:|--:|',
			`| item ${block} | 中文 | ${block * 7} |`,
			'',
			`\`\`\`${language}`,
		];
		const body = code(language, block);
		const fill = perBlock - section.length - 2;
		for (let line = 0; line < fill; line++) section.push(body[line % body.length]!);
		section.push('```', '');
		lines.push(...section);
	}

	lines.length = MARKDOWN_LINES - 1;
	lines.push('END');
	// About a word a token, as a model streams prose; the spaces and newline before a word ride with it.
	const tokens = lines.join('\n').match(/\s*\S+/g) ?? [];
	return {tokens, lines: lines.length};
}

const FRAME_START = '\u001B[?2026h';

/**
 * The chat screen drawing one Markdown answer as Markdown and as plain text
 * (I_MARKDOWN=0), a launch each in one run: CPU of the process tree while
 * it streams, frames, CPU per frame; and launch to first frame and to ready
 * with and without the Markdown chunk, which loads behind the first frame.
 */
export async function benchMarkdown(): Promise<void> {
	const {tokens, lines} = markdownAnswer();
	const server = await startPacedServer(tokens, MARKDOWN_RATE);
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-bench-markdown-')));
	const workspace = join(root, 'workspace');
	mkdirSync(workspace);
	mkdirSync(join(root, 'config'));
	writeFileSync(join(root, 'config', 'config.json'), JSON.stringify({protocol: 'openai', base_url: server.baseUrl, model: 'bench', api_key_env: 'BENCH_KEY'}));
	const env = {PATH: process.env.PATH, HOME: root, I_CONFIG_DIR: join(root, 'config'), I_DATA_DIR: join(root, 'data'), I_CACHE_DIR: join(root, 'cache'), I_RUNTIME_DIR: join(root, 'runtime'), BENCH_KEY: 'k'};
	// No emulator: its parsing would be CPU on the measured machine.
	const terminal = {env, cwd: workspace, cols: COLUMNS, rows: ROWS, emulate: false};
	// Ready: the status line names the model (it does once the agent is set up) after the last "starting" spinner.
	const isReady = (output: string) => output.lastIndexOf('bench · ') > output.lastIndexOf('starting —');

	console.log('');
	console.log(`chat screen Markdown: a ${lines}-line answer with ${MARKDOWN_CODE_BLOCKS} code blocks, ${tokens.length} tokens at ${MARKDOWN_RATE} tokens/s, ${COLUMNS}×${ROWS}`);
	const figures = {} as Record<'markdown' | 'plain', {cpuMs: number; frames: number; streamMs: number}>;
	for (const mode of ['plain', 'markdown'] as const) {
		const run = spawnInTerminal(process.execPath, [cli, '-C', workspace, '--no-logo'], {...terminal, env: mode === 'plain' ? {...env, I_MARKDOWN: '0'} : env});
		await run.waitForOutput(isReady, 'the agent set up', {timeoutMs: 30_000});
		await sleep(500);
		const cpuBefore = treeCpuMs(run.pid);
		const since = run.output().length;
		const begun = performance.now();
		run.type('go\r');
		await run.waitForOutput(output => output.includes('END', since) && output.lastIndexOf('/help') > output.lastIndexOf('END'), 'the end of the answer', {
			timeoutMs: (tokens.length / MARKDOWN_RATE) * 4000 + 60_000,
		});
		const streamMs = performance.now() - begun;
		figures[mode] = {cpuMs: treeCpuMs(run.pid) - cpuBefore, frames: count(run.output().slice(since), FRAME_START), streamMs};
		await run.close();
	}

	const launches = async (launchEnv: NodeJS.ProcessEnv): Promise<{first: number; ready: number}> => {
		const firsts: number[] = [];
		const readies: number[] = [];
		for (let launch = 0; launch < FIRST_FRAME_LAUNCHES; launch++) {
			const launched = performance.now();
			let seen = '';
			let first = Number.NaN;
			let ready = Number.NaN;
			const run = spawnInTerminal(process.execPath, [cli, '-C', workspace, '--no-logo'], {
				...terminal,
				env: launchEnv,
				onData(data) {
					seen += data;
					if (Number.isNaN(first) && seen.includes('/help')) first = performance.now() - launched;
					if (Number.isNaN(ready) && isReady(seen)) ready = performance.now() - launched;
				},
			});
			await run.waitUntil(() => !Number.isNaN(ready), 'the ready screen', {timeoutMs: 30_000});
			await run.close();
			firsts.push(first);
			readies.push(ready);
		}

		return {first: median(firsts), ready: median(readies)};
	};

	const without = await launches({...env, I_MARKDOWN: '0'});
	const withMarkdown = await launches(env);
	await server.close();

	const perFrame = (mode: {cpuMs: number; frames: number}) => mode.cpuMs / Math.max(1, mode.frames);
	const cell = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(0));
	const ratio = (ours: number, base: number) => `${(ours / base).toFixed(2)}×`;
	const {plain, markdown} = figures;
	console.log('');
	console.log('| measure | plain (I_MARKDOWN=0) | Markdown | ratio |');
	console.log('|---|---:|---:|---:|');
	console.log(`| CPU while streaming the answer, ms (process tree) | ${cell(plain.cpuMs)} | ${cell(markdown.cpuMs)} | ${ratio(markdown.cpuMs, plain.cpuMs)} |`);
	console.log(`| frames drawn | ${plain.frames} | ${markdown.frames} | |`);
	console.log(`| CPU per streamed frame, ms | ${cell(perFrame(plain))} | ${cell(perFrame(markdown))} | ${ratio(perFrame(markdown), perFrame(plain))} |`);
	console.log(`| CPU while streaming, % of one core | ${cell((plain.cpuMs / plain.streamMs) * 100)} | ${cell((markdown.cpuMs / markdown.streamMs) * 100)} | |`);
	console.log(`| launch to first frame, ms (median of ${FIRST_FRAME_LAUNCHES}) | ${cell(without.first)} | ${cell(withMarkdown.first)} | ${ratio(withMarkdown.first, without.first)} |`);
	console.log(`| launch to ready (agent set up; Markdown loaded), ms | ${cell(without.ready)} | ${cell(withMarkdown.ready)} | ${ratio(withMarkdown.ready, without.ready)} |`);
	console.log('');
	console.log(
		`the stream took ${(markdown.streamMs / 1000).toFixed(1)} s (Markdown), ${(plain.streamMs / 1000).toFixed(1)} s (plain); ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)} at the end`,
	);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	if (process.argv.includes('--markdown')) await benchMarkdown();
	else await benchTui();
}
