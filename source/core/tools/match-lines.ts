import vm from 'node:vm';

/** Lines longer than this are not scanned: minified bundles and data blobs, where matches are noise and regex cost explodes. */
export const MAX_SCANNED_LINE_CHARS = 10_000;
/** Wall time one batch of files may take; a regex that needs more is backtracking catastrophically. */
export const REGEX_TIME_LIMIT_MS = 5000;

export interface LineMatch {
	/** Index into the batch's texts. */
	text: number;
	/** 1-based. */
	line: number;
	/** Where the match starts in the line. */
	column: number;
	/** The line, without its line ending. */
	content: string;
}

export interface BatchMatches {
	matches: LineMatch[];
	longLinesSkipped: number;
	/** The regex ran out of time; this batch's matches are lost. */
	timedOut: boolean;
}

// Runs in a vm context so its timeout can interrupt a runaway regex, which
// nothing else can do to synchronous code on the main thread.
const matcherSource = `
	(() => {
		const matches = [];
		let longLinesSkipped = 0;
		// A line too long to scan: the whole-text filter would run the regex over it too (and the tally counts it).
		const hasLongLine = text => {
			if (text.length <= maxLineChars) return false;
			for (let start = 0; ; ) {
				const end = text.indexOf('\\n', start);
				if ((end === -1 ? text.length : end) - start > maxLineChars) return true;
				if (end === -1) return false;
				start = end + 1;
			}
		};
		scan: for (let text = 0; text < texts.length; text++) {
			// Most files match nowhere: one pass over the whole text rules them out before any line is split.
			if (prefilter !== null && !texts[text].includes('\\r') && !hasLongLine(texts[text]) && !prefilter.test(texts[text])) continue;
			const lines = texts[text].split('\\n');
			for (let index = 0; index < lines.length; index++) {
				let line = lines[index];
				if (line.length > maxLineChars) {
					longLinesSkipped++;
					continue;
				}
				if (line.endsWith('\\r')) line = line.slice(0, -1);
				const match = regex.exec(line);
				if (match) {
					matches.push({text, line: index + 1, column: match.index, content: line});
					if (matches.length >= maxMatches) break scan;
				}
			}
		}
		return {matches, longLinesSkipped};
	})()
`;

/** One context for every batch (creating one costs milliseconds); each call sets its inputs. */
const globals: Record<string, unknown> = {maxLineChars: MAX_SCANNED_LINE_CHARS};
/** Made at the first search, not when the tools are set up: a run that never searches pays nothing for them. */
let compiled: {matcher: vm.Script; context: vm.Context} | undefined;

/**
 * The regex over a whole text, lines as `^`/`$` boundaries: it finds a match
 * in any text where some line has one, so a text it finds nothing in can be
 * skipped. Not for lookarounds, which could see across a line break and
 * refuse what the line alone would match (and texts with CR, where `$`
 * differs: the caller checks); null then.
 */
function wholeTextFilter(regex: RegExp): RegExp | null {
	if (/\(\?<?[=!]/.test(regex.source)) return null;
	return new RegExp(regex.source, `${regex.flags.replaceAll(/[gym]/g, '')}m`);
}

const filters = new WeakMap<RegExp, RegExp | null>();

/** First match per line in each text, stopping at `maxMatches`. `regex` must not be global or sticky. */
export function matchLines(regex: RegExp, texts: readonly string[], maxMatches: number): BatchMatches {
	let prefilter = filters.get(regex);
	if (prefilter === undefined) {
		prefilter = wholeTextFilter(regex);
		filters.set(regex, prefilter);
	}

	compiled ??= {matcher: new vm.Script(matcherSource), context: vm.createContext(globals)};
	Object.assign(globals, {regex, texts, maxMatches, prefilter});
	try {
		const result = compiled.matcher.runInContext(compiled.context, {timeout: REGEX_TIME_LIMIT_MS}) as Omit<BatchMatches, 'timedOut'>;
		return {matches: [...result.matches], longLinesSkipped: result.longLinesSkipped, timedOut: false};
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
			return {matches: [], longLinesSkipped: 0, timedOut: true};
		}

		throw error;
	} finally {
		// Nothing of a finished search stays reachable from the context.
		Object.assign(globals, {regex: null, texts: null, prefilter: null});
	}
}
