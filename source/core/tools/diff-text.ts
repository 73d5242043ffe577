import {countLines} from './format.js';

/** Beyond this a diff is described rather than computed (Myers diff is slow on large rewrites). */
const DIFF_TIMEOUT_MS = 2000;

export interface TextDiff {
	/** A unified diff with `---`/`+++` headers and three lines of context. */
	text: string;
	added: number;
	removed: number;
	/** First changed line in the new text, 1-based; null when nothing changed. */
	firstLine: number | null;
}

/**
 * Diff two versions of a file; CR before LF is ignored so CRLF files diff as
 * cleanly as LF ones. The diff library loads on first use: only approvals need it.
 */
export async function diffTexts(name: string, before: string, after: string): Promise<TextDiff> {
	const {FILE_HEADERS_ONLY, formatPatch, structuredPatch} = await import('diff');
	const patch = structuredPatch(name, name, before, after, undefined, undefined, {context: 3, stripTrailingCr: true, timeout: DIFF_TIMEOUT_MS});
	if (!patch) {
		return {
			text: `--- ${name}\n+++ ${name}\n(diff too slow to compute: ${countLines(before)} lines before, ${countLines(after)} lines after)`,
			added: countLines(after),
			removed: countLines(before),
			firstLine: 1,
		};
	}

	let added = 0;
	let removed = 0;
	for (const hunk of patch.hunks) {
		for (const line of hunk.lines) {
			if (line.startsWith('+')) {
				added++;
			} else if (line.startsWith('-')) {
				removed++;
			}
		}
	}

	const first = patch.hunks[0];
	return {
		text: formatPatch(patch, FILE_HEADERS_ONLY).trimEnd(),
		added,
		removed,
		firstLine: first ? firstChangedLine(first) : null,
	};
}

function firstChangedLine(hunk: {newStart: number; lines: string[]}): number {
	let line = hunk.newStart;
	for (const text of hunk.lines) {
		if (text.startsWith('+') || text.startsWith('-')) {
			return line;
		}

		if (text.startsWith(' ')) {
			line++;
		}
	}

	return line;
}
