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
const matcher = new vm.Script(`
	(() => {
		const matches = [];
		let longLinesSkipped = 0;
		scan: for (let text = 0; text < texts.length; text++) {
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
`);

/** First match per line in each text, stopping at `maxMatches`. `regex` must not be global or sticky. */
export function matchLines(regex: RegExp, texts: readonly string[], maxMatches: number): BatchMatches {
	const context = vm.createContext({regex, texts, maxMatches, maxLineChars: MAX_SCANNED_LINE_CHARS});
	try {
		const result = matcher.runInContext(context, {timeout: REGEX_TIME_LIMIT_MS}) as Omit<BatchMatches, 'timedOut'>;
		return {matches: [...result.matches], longLinesSkipped: result.longLinesSkipped, timedOut: false};
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
			return {matches: [], longLinesSkipped: 0, timedOut: true};
		}

		throw error;
	}
}
