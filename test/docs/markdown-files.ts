import {readdirSync, readFileSync} from 'node:fs';
import {dirname, join, relative} from 'node:path';
import {fileURLToPath} from 'node:url';

/** The repository the compiled tests were built from (dist/test/docs/ → the root). */
export const repository = dirname(fileURLToPath(new URL('../../', import.meta.url)));

/** The documentation a person reads: the README, the changelog and every page under docs/. */
export function documentationFiles(): string[] {
	const pages = (dir: string): string[] =>
		readdirSync(dir, {withFileTypes: true}).flatMap(entry => {
			const path = join(dir, entry.name);
			if (entry.isDirectory()) return pages(path);
			return entry.name.endsWith('.md') ? [path] : [];
		});
	return [join(repository, 'README.md'), join(repository, 'CHANGELOG.md'), ...pages(join(repository, 'docs'))];
}

export function read(path: string): string {
	return readFileSync(path, 'utf8');
}

export function shown(path: string): string {
	return relative(repository, path);
}

/** The text outside fenced code blocks, with each line's number kept (code lines become empty). */
export function proseOf(text: string): string {
	let fenced = false;
	return text
		.split('\n')
		.map(line => {
			if (/^\s*(```|~~~)/.test(line)) {
				fenced = !fenced;
				return '';
			}

			return fenced ? '' : line.replace(/`[^`\n]*`/g, '');
		})
		.join('\n');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N} _-]/gu, '')
		.replace(/ /g, '-');
}

/** The anchors of a Markdown page's headings (a repeated heading gets -1, -2… as on GitHub). */
export function anchorsOf(text: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	for (const line of proseOf(text.replace(/`([^`\n]*)`/g, '$1')).split('\n')) {
		const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (!heading) continue;
		const base = anchorOf(heading[1]!);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}

	return anchors;
}
