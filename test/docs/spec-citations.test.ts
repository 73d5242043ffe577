// A comment or page that cites the specification cites a section that
// exists: `spec/platform.md §5` needs a `## §5 …` (or `### §5.1 …` for
// §5.1) heading in docs/spec/platform.md. Nothing cites the documents the
// specification was written from, which are not in the repository
// (issue 42).
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {extname, join, relative} from 'node:path';
import {fileURLToPath} from 'node:url';
import {repository} from './markdown-files.js';

const FOLDERS = ['source', 'components', 'workers', 'providers', 'examples', 'scripts', 'bin', 'test', 'docs', 'config', 'plugins'];
const EXTENSIONS = new Set(['.ts', '.tsx', '.js', '.cjs', '.mjs', '.md', '.json', '.py', '.sh']);
const SKIPPED = new Set(['node_modules', 'dist', '.git', 'fixtures-out']);
const thisTest = relative(repository, fileURLToPath(import.meta.url))
	.replace(/^dist[\\/]/, '')
	.replace(/\.js$/, '.ts');

function filesUnder(dir: string): string[] {
	let entries;
	try {
		entries = readdirSync(dir, {withFileTypes: true});
	} catch {
		return [];
	}

	return entries.flatMap(entry => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : filesUnder(path);
		return EXTENSIONS.has(extname(entry.name)) ? [path] : [];
	});
}

const files = [join(repository, 'README.md'), join(repository, 'CHANGELOG.md'), ...FOLDERS.flatMap(folder => filesUnder(join(repository, folder)))].filter(file => relative(repository, file) !== thisTest);

/** The sections a spec page has: `## §5 …` gives 5, `### §5.1 …` gives 5.1. */
function sectionsOf(page: string): Set<string> {
	const text = readFileSync(join(repository, 'docs', 'spec', page), 'utf8');
	return new Set([...text.matchAll(/^#{2,4}\s+§\s*(\d+(?:\.\d+)*)\b/gm)].map(match => match[1]!));
}

/** Each citation of a spec section in `text`, with its line. */
function citationsIn(text: string): Array<{page: string; section: string; line: number}> {
	const found: Array<{page: string; section: string; line: number}> = [];
	text.split('\n').forEach((line, index) => {
		for (const match of line.matchAll(/spec\/(platform|extensions)\.md\)?,?\s*§\s*(\d+(?:\.\d+)*)/g)) found.push({page: `${match[1]}.md`, section: match[2]!, line: index + 1});
	});
	return found;
}

/** Mentions of the documents the spec was written from (the seeds, the design notes beside the repository), which a clone does not have. */
function oldCitationsIn(text: string): number[] {
	const lines: number[] = [];
	text.split('\n').forEach((line, index) => {
		if (/\bseeds?\b/i.test(line) || /\b(?:EXTENSIONS|DESIGN)\.md\b/.test(line)) lines.push(index + 1);
	});
	return lines;
}

test('every section a comment or page cites exists in docs/spec/', () => {
	const sections = {'platform.md': sectionsOf('platform.md'), 'extensions.md': sectionsOf('extensions.md')} as Record<string, Set<string>>;
	assert.ok(sections['platform.md']!.size >= 10 && sections['extensions.md']!.size >= 10, 'the spec pages have their numbered sections');
	const missing: string[] = [];
	let cited = 0;
	for (const file of files) {
		for (const {page, section, line} of citationsIn(readFileSync(file, 'utf8'))) {
			cited++;
			if (!sections[page]!.has(section)) missing.push(`${relative(repository, file)}:${line}: spec/${page} §${section}`);
		}
	}

	assert.ok(cited > 100, `only ${cited} citations found: the scan is broken`);
	assert.deepEqual(missing, []);
});

test('nothing cites the seed documents or ../shared/, which are not in the repository', () => {
	const old: string[] = [];
	for (const file of files) for (const line of oldCitationsIn(readFileSync(file, 'utf8'))) old.push(`${relative(repository, file)}:${line}`);
	assert.deepEqual(old, []);
});

test('the scans see the forms used', () => {
	assert.deepEqual(
		citationsIn('// spec/platform.md §5 and spec/extensions.md §3.2; [spec](spec/platform.md) §7').map(({page, section}) => `${page} ${section}`),
		['platform.md 5', 'extensions.md 3.2', 'platform.md 7'],
	);
	assert.deepEqual(oldCitationsIn('a seed §3\nb Seed 004 §5\nc (the seed gives none)\nd ../shared/EXTENSIONS.md\ne the spec, seeded\nf spec/extensions.md §3'), [1, 2, 3, 4]);
});
