// The README as issue 42 holds it: short, no measurements, a Quick start of
// exactly the two command lines (one runs i, one the tests, which .ci/run
// runs too), and the first of them runs as written on a fresh machine: the
// chat opens its first-run setup with no config and no key. The Install
// lines are the ones test/package/install.test.ts runs (npm pack, then the
// tarball installed globally, into a prefix of its own).
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {join} from 'node:path';
import {makeSandbox} from '../helpers/cli.js';
import {spawnInTerminal} from '../helpers/pty.js';
import {documentationFiles, read, repository, shown} from './markdown-files.js';

/** Issue 42: the README stays short. */
const MAX_README_LINES = 300;

const readme = read(join(repository, 'README.md'));

/** The command lines of the first sh block under a `## heading`, comments dropped. */
function commandsUnder(heading: string): string[] {
	const section = readme.split(/^## /m).find(part => part.startsWith(`${heading}\n`));
	assert.ok(section, `the README has no "## ${heading}"`);
	const block = /```sh\n([\s\S]*?)```/.exec(section);
	assert.ok(block, `"## ${heading}" has no sh block`);
	return block[1]!
		.split('\n')
		.map(line => line.replace(/\s+#.*$/, '').trim())
		.filter(Boolean);
}

test(`the README is at most ${MAX_README_LINES} lines`, () => {
	const lines = readme.split('\n').length;
	assert.ok(lines <= MAX_README_LINES, `README.md has ${lines} lines`);
});

test('the README and the user guide hold no measurement diary', () => {
	const guide = documentationFiles().filter(file => !file.includes(`${join('docs', 'dev')}`) && !file.endsWith('CHANGELOG.md') && !file.includes(join('docs', 'spec')));
	const found: string[] = [];
	for (const file of guide) {
		read(file)
			.split('\n')
			.forEach((line, index) => {
				if (/\b20\d\d-\d\d-\d\d\b|tried without gain|earlier figures|\b\d+(\.\d+)?×\s*(faster|slower|the|its|wall|CPU)/i.test(line)) found.push(`${shown(file)}:${index + 1}: ${line.trim()}`);
			});
	}

	assert.deepEqual(found, []);
});

test('the Quick start has exactly two command lines: one runs i, one runs the tests, as .ci/run does', () => {
	const commands = commandsUnder('Quick start');
	assert.equal(commands.length, 2, commands.join('\n'));
	assert.equal(commands[0], 'npm ci && node bin/i.js');
	assert.equal(commands[1], 'npm ci && npm test');
	assert.match(read(join(repository, '.ci', 'run')), /^npm ci && npm test$/m);
});

test('the Install lines are the ones the package test runs', () => {
	assert.deepEqual(commandsUnder('Install'), ['npm pack', 'npm install -g ./i-agent-*.tgz']);
	const packageTest = read(join(repository, 'test', 'package', 'install.test.ts'));
	assert.match(packageTest, /\['pack'/);
	assert.match(packageTest, /'install', '--global'/);
});

test("the Quick start's first line runs i as written: a fresh machine gets the chat's first-run setup", async () => {
	const box = makeSandbox();
	// `node bin/i.js` from the repository's root, with empty config and data folders and no key.
	const [program, script] = commandsUnder('Quick start')[0]!
		.replace(/^npm ci && /, '')
		.split(' ');
	assert.equal(program, 'node');
	const run = spawnInTerminal(process.execPath, [join(repository, script!)], {env: box.env, cwd: repository, cols: 120, rows: 40});
	try {
		await run.waitFor(screen => screen.includes('1 of 3: a provider'), 'the first-run setup');
		run.type('\u0003');
		assert.equal((await run.exit()).exitCode, 2);
	} finally {
		await run.close();
	}
});
