// Every relative link in the README, the changelog and docs/ resolves: the
// file exists, and an anchor names a heading of that page (issue 42).
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, statSync} from 'node:fs';
import {dirname, resolve} from 'node:path';
import {anchorsOf, documentationFiles, proseOf, read, shown} from './markdown-files.js';

/** Inline links and images `[text](target)` (text may wrap lines) and reference definitions `[name]: target`. */
function targetsOf(text: string): string[] {
	const prose = proseOf(text);
	const inline = [...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(match => match[1]!);
	const references = [...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map(match => match[1]!);
	return [...inline, ...references];
}

/** What is wrong with one link of `page`, or null. */
function brokenLink(page: string, target: string): string | null {
	if (/^[a-z][a-z\d+.-]*:/i.test(target)) return null;
	const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
	const file = pathPart === '' ? page : resolve(dirname(page), decodeURIComponent(pathPart));
	if (!existsSync(file)) return `${target}: no such file`;
	if (anchor === undefined || anchor === '') return null;
	if (statSync(file).isDirectory() || !file.endsWith('.md')) return `${target}: an anchor into something that is not a Markdown page`;
	return anchorsOf(read(file)).has(anchor) ? null : `${target}: ${shown(file)} has no heading with the anchor #${anchor}`;
}

test('every relative link and image in the documentation resolves', () => {
	const broken: string[] = [];
	let links = 0;
	for (const page of documentationFiles()) {
		for (const target of targetsOf(read(page))) {
			links++;
			const problem = brokenLink(page, target);
			if (problem) broken.push(`${shown(page)}: ${problem}`);
		}
	}

	assert.ok(links > 50, `only ${links} links found: the scan is broken`);
	assert.deepEqual(broken, []);
});

test('the check fails on a missing file, a missing anchor and code-only links', () => {
	const readme = documentationFiles()[0]!;
	assert.match(brokenLink(readme, 'docs/no-such-page.md') ?? '', /no such file/);
	assert.match(brokenLink(readme, 'docs/dev/performance.md#no-such-heading') ?? '', /no heading/);
	assert.equal(brokenLink(readme, 'https://example.com/x'), null);
	assert.equal(brokenLink(readme, '#quick-start'), null);
	assert.deepEqual(targetsOf('```\n[a](missing.md)\n```\n`[b](missing.md)`\n![c\nd](img.png) [e]: x.md'), ['img.png']);
	assert.deepEqual(targetsOf('[ref]: docs/x.md'), ['docs/x.md']);
});
