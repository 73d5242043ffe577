import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {spawn as spawnPty} from '@lydell/node-pty';
import {renderPlain} from '../../brand/render-plain.js';
import {renderSvg, svgHeightPx, svgWidthPx} from '../../brand/render-svg.js';
import {runCli, unbundledCliPath} from '../helpers/cli.js';
import {glyphRows, readAnsi, readAscii, readPlain, readSvg, shapeOf} from './read-renders.js';

const cli = fileURLToPath(new URL('../../bundle/cli.js', import.meta.url));
const env = {PATH: process.env.PATH};

/** `i --runtime logo …` in a real terminal, since colour is only for terminals; the pty turns `\n` into `\r\n`. */
function runInTerminal(args: string[], extraEnv: Record<string, string>): Promise<{code: number; output: string}> {
	return new Promise(resolve => {
		const terminal = spawnPty(process.execPath, [cli, '--runtime', 'logo', ...args], {cols: 80, rows: 24, env: {...env, TERM: 'xterm-256color', ...extraEnv}});
		let output = '';
		terminal.onData(data => (output += data));
		// Output can trail the exit notice by a moment.
		terminal.onExit(({exitCode}) => setTimeout(() => resolve({code: exitCode, output: output.replaceAll('\r\n', '\n')}), 100));
	});
}

test('--plain prints the half-block glyph without ANSI', async () => {
	const run = await runCli(['--runtime', 'logo', '--plain'], {env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, renderPlain());
	assert.doesNotMatch(run.stdout, /\u001B/);
	assert.deepEqual(readPlain(run.stdout), shapeOf(glyphRows));
});

test('--ascii prints the glyph in ASCII only', async () => {
	const run = await runCli(['--runtime', 'logo', '--ascii'], {env});
	assert.equal(run.code, 0, run.stderr);
	assert.ok(Buffer.from(run.stdout).every(byte => byte < 0x80));
	assert.deepEqual(readAscii(run.stdout), glyphRows);
	// --ascii is the stricter of the two and wins.
	assert.equal((await runCli(['--runtime', 'logo', '--plain', '--ascii'], {env})).stdout, run.stdout);
});

test('--svg prints a well-formed SVG document of the documented size', async () => {
	const run = await runCli(['--runtime', 'logo', '--svg'], {env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, renderSvg());
	const svg = readSvg(run.stdout);
	assert.equal(svg.root.width, `${svgWidthPx}px`);
	assert.equal(svg.root.height, `${svgHeightPx}px`);
	assert.deepEqual(svg.rows, glyphRows);
});

test('by default a pipe gets the plain glyph', async () => {
	const run = await runCli(['--runtime', 'logo'], {env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, renderPlain());
});

test('by default a terminal gets colour: truecolor when announced, else 256 colours', async () => {
	const truecolor = await runInTerminal([], {COLORTERM: 'truecolor'});
	assert.equal(truecolor.code, 0);
	assert.match(truecolor.output, /\u001B\[38;2;/);
	assert.deepEqual(readAnsi(truecolor.output), glyphRows);
	const indexed = await runInTerminal([], {});
	assert.match(indexed.output, /\u001B\[38;5;/);
	assert.doesNotMatch(indexed.output, /\u001B\[38;2;/);
	assert.deepEqual(readAnsi(indexed.output), glyphRows);
	// no-color.org: only a non-empty NO_COLOR opts out.
	assert.match((await runInTerminal([], {COLORTERM: 'truecolor', NO_COLOR: ''})).output, /\u001B\[38;2;/);
});

test('NO_COLOR=1 and --plain turn colour off in a terminal', async () => {
	for (const [args, extra] of [
		[[], {NO_COLOR: '1'}],
		[['--plain'], {}],
	] as const) {
		const run = await runInTerminal([...args], {COLORTERM: 'truecolor', ...extra});
		assert.equal(run.code, 0);
		assert.equal(run.output, renderPlain(), `${args.join(' ')} ${JSON.stringify(extra)}`);
	}
});

for (const [args, message] of [
	[['--bogus'], /unknown flag --bogus; see i --help/],
	[['extra'], /unexpected argument "extra"/],
	[['--svg', '--plain'], /--svg cannot be combined with --plain or --ascii/],
	[['--svg', '--ascii'], /--svg cannot be combined/],
] as const) {
	test(`${args.join(' ')} is a usage error (exit 2)`, async () => {
		const run = await runCli(['--runtime', 'logo', ...args], {env});
		assert.equal(run.code, 2);
		assert.equal(run.stdout, '');
		assert.match(run.stderr, /^i: --runtime logo: /);
		assert.match(run.stderr, message);
	});
}

test('--runtime logo never loads ink or react', async () => {
	const log = join(mkdtempSync(join(tmpdir(), 'i-logo-')), 'imports.log');
	const recorder = fileURLToPath(new URL('../fixtures/import-recorder.js', import.meta.url));
	// The module graph is only visible before bundling; the bundle is built from it.
	const run = await runCli(['--runtime', 'logo'], {env: {...env, NODE_OPTIONS: `--import=${recorder}`, I_TEST_IMPORT_LOG: log}, entry: unbundledCliPath});
	assert.equal(run.code, 0, run.stderr);
	const urls = readFileSync(log, 'utf8').split('\n');
	assert.ok(
		urls.some(url => url.endsWith('/brand/render-ansi.js')),
		'the recorder saw the renderers',
	);
	assert.deepEqual(
		urls.filter(url => /\/node_modules\/(ink|react|ink-[^/]+|react-[^/]+)\/|\/components\//.test(url)),
		[],
	);
});
