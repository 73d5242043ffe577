// docs/command-line.md and the built program's help cannot drift apart:
// every flag a help prints is on the page, every flag the page's tables
// document is in a help, every exit code of source/core/errors.ts is in the
// page's table with its number, and every variable, command and exit code
// the help names is on the page.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {exitCodes} from '../../source/core/errors.js';

/** The repository, above the compiled tree (dist/test/docs/ → ../../..). */
const repository = fileURLToPath(new URL('../../../', import.meta.url));
const page = readFileSync(join(repository, 'docs', 'command-line.md'), 'utf8');

/**
 * Flags the page documents in a table though no help prints them, each with
 * why; the test checks that each is still missing from every help (so the
 * list cannot go stale) and on the page.
 */
const undocumentedInHelp = new Map([
	// A worker's own option: `i --runtime worker smoke --output-cap N`.
	['--output-cap', 'a worker option'],
]);

/** One help text of the built program: `i ARGS`, in an empty config folder, without a terminal. */
function help(args: string[]): string {
	const home = mkdtempSync(join(tmpdir(), 'i-docs-help-'));
	try {
		return execFileSync(process.execPath, [join(repository, 'bin', 'i.js'), ...args], {
			encoding: 'utf8',
			env: {PATH: process.env.PATH ?? '', HOME: home, I_CONFIG_DIR: join(home, 'config'), I_DATA_DIR: join(home, 'data'), I_CACHE_DIR: join(home, 'cache'), I_RUNTIME_DIR: join(home, 'runtime'), NO_COLOR: '1'},
		});
	} finally {
		rmSync(home, {recursive: true, force: true});
	}
}

const mainHelp = help(['--help']);
const helps = {'i --help': mainHelp, 'i auth --help': help(['auth', '--help']), 'i mcp --help': help(['mcp', '--help']), 'i rewind --help': help(['rewind', '--help'])};

/** Long flags (`--name`) and short ones (`-p`) standing as words of a text; `--` alone and `Ctrl-C` are neither. */
function flagsIn(text: string): Set<string> {
	return new Set([...text.matchAll(/(?<![\w-])(--[a-z][a-z0-9-]*|-[A-Za-z])(?![\w-])/g)].map(match => match[1]!));
}

const literal = (text: string) => text.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Whether `flag` stands as a word of `text` (`--json` is not in `--jsonl`, nor `-p` in `-pC`). */
const mentions = (text: string, flag: string) => new RegExp(`(?<![\\w-])${literal(flag)}(?![\\w-])`).test(text);

/** The flags the page's tables document: each flag in the first cell of a table row that starts with one. */
function documentedFlags(): Set<string> {
	const flags = new Set<string>();
	for (const line of page.split('\n')) {
		const first = /^\| (`-[^|]*) \|/.exec(line);
		if (first) for (const flag of flagsIn(first[1]!)) flags.add(flag);
	}

	return flags;
}

test('the helps are there to compare with', () => {
	for (const [name, text] of Object.entries(helps)) assert.match(text, /Options/, `${name} printed its help`);
	assert.ok(documentedFlags().size > 30, 'the page has its flag tables');
});

test('every flag a help prints is in a table of docs/command-line.md', () => {
	const documented = documentedFlags();
	// `i --runtime …` and `i --provider-action …` are commands: the page has a section for each, not a table row.
	const commands = new Set([...mainHelp.matchAll(/^\s+\$ i (--[a-z-]+) [a-z]/gm)].map(match => match[1]!));
	assert.ok(commands.has('--runtime'), 'i --help shows the runtime commands');
	for (const [name, text] of Object.entries(helps)) {
		for (const flag of flagsIn(text)) {
			if (commands.has(flag)) assert.ok(page.includes(`### \`i ${flag}\``), `${name} shows i ${flag}; docs/command-line.md has no section for it`);
			else assert.ok(documented.has(flag), `${name} prints ${flag}; no table of docs/command-line.md documents it`);
		}
	}
});

test('every flag the tables of docs/command-line.md document is in a help', () => {
	const all = Object.values(helps).join('\n');
	for (const flag of documentedFlags()) {
		if (undocumentedInHelp.has(flag)) continue;
		assert.ok(mentions(all, flag), `docs/command-line.md documents ${flag}, which no help (${Object.keys(helps).join(', ')}) prints`);
	}

	for (const [flag, why] of undocumentedInHelp) {
		assert.ok(!mentions(all, flag), `${flag} (${why}) is in a help now: take it off the list of exceptions`);
		assert.ok(mentions(page, flag), `docs/command-line.md documents ${flag} (${why})`);
	}
});

/** The rows of the page's table under `## Exit codes`: code → meaning. */
function exitCodeRows(): Map<number, string> {
	const start = page.indexOf('\n## Exit codes\n');
	assert.notEqual(start, -1, 'docs/command-line.md has a section "Exit codes"');
	const end = page.indexOf('\n## ', start + 1);
	const rows = new Map<number, string>();
	for (const match of page.slice(start, end === -1 ? undefined : end).matchAll(/^\| (\d+) \| (.+) \|$/gm)) rows.set(Number(match[1]), match[2]!);
	return rows;
}

test('every exit code of the source is in the table of docs/command-line.md with its number', () => {
	const rows = exitCodeRows();
	for (const [name, code] of Object.entries(exitCodes)) assert.ok(rows.has(code), `exitCodes.${name} (${code}) is not in the exit code table of docs/command-line.md`);
	// The help's own line, "0 done · 1 the turn failed · …".
	const line = /Exit codes\n\s+(.+)/.exec(mainHelp);
	assert.ok(line, 'i --help has its exit codes');
	for (const [, code] of line[1]!.matchAll(/(?:^|· )(\d+) /g)) assert.ok(rows.has(Number(code)), `i --help names exit code ${code}; the table does not`);
});

test('every environment variable, command and runtime command the help names is on docs/command-line.md', () => {
	const environment = mainHelp.slice(mainHelp.indexOf('\n  Environment'));
	// Each line names its variables before the gap that starts its description: `I_MARKDOWN=0      the chat screen…`.
	const variables = new Set(
		environment
			.split('\n')
			.slice(1)
			.flatMap(line => (line.trim().split(/\s{2,}/)[0] ?? '').split(' '))
			.map(word => word.replace(/=.*/, ''))
			.filter(word => /^[A-Z][A-Z0-9_]+$/.test(word)),
	);
	assert.ok(variables.has('I_CONFIG_DIR'), 'the help lists the platform folders');
	for (const variable of variables) assert.ok(page.includes(`\`${variable}`), `i --help names ${variable}; docs/command-line.md does not list it`);
	for (const [, words] of mainHelp.matchAll(/^\s+\$ i ((?:--runtime |--provider-action )?[a-z][a-z-]*)/gm)) {
		assert.ok(page.includes(`i ${words}`), `i --help shows "i ${words}"; docs/command-line.md does not`);
	}

	for (const [name, text] of Object.entries(helps)) {
		for (const [, words] of text.matchAll(/^\s+\$ i ((?:auth|mcp) [a-z]+)/gm)) assert.ok(page.includes(`i ${words}`), `${name} shows "i ${words}"; docs/command-line.md does not`);
	}
});
