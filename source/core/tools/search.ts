import {stat} from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod/mini';
import {parseArguments} from './arguments.js';
import {describeFileError} from './file-content.js';
import {joinWithinLimit, plural} from './format.js';
import {globMatcher} from './glob-matcher.js';
import {MAX_SCANNED_LINE_CHARS, REGEX_TIME_LIMIT_MS, type LineMatch} from './match-lines.js';
import {toParameters} from './parameters.js';
import {outsideWorkspaceAsk, pathArgument, resolvePath, type ResolvedPath} from './paths.js';
import {ToolInputError, type Tool, type ToolContext, type ToolResult} from './types.js';
import {describeWalkLimit, walkFiles, type WalkedFile, type WalkResult} from './walk.js';
import {scanFiles, type ScanPattern, type Tally} from './search-scan.js';
import {scanInWorker} from './search-thread.js';

export const DEFAULT_SEARCH_RESULTS = 200;
export const MAX_SEARCH_RESULTS = 1000;
export const MAX_SNIPPET_CHARS = 200;

const schema = z.strictObject({
	pattern: z.string().check(z.minLength(1), z.describe('Text to find; a JavaScript regular expression when regex is true')),
	path: z.optional(pathArgument('File or folder to search (default: the workspace)')),
	glob: z.optional(z.string().check(z.minLength(1))).check(z.describe('Only search files whose path relative to path matches this glob; a glob without "/" matches file names at any depth, e.g. "*.ts"')),
	regex: z._default(z.boolean(), false).check(z.describe('Treat pattern as a regular expression (default: literal text)')),
	case_sensitive: z.optional(z.boolean()).check(z.describe('Default: smart case, i.e. case-insensitive unless pattern contains an uppercase letter')),
	max_results: z
		._default(z.number().check(z.int(), z.minimum(1), z.maximum(MAX_SEARCH_RESULTS)), DEFAULT_SEARCH_RESULTS)
		.check(z.describe(`Most matching lines to return (default ${DEFAULT_SEARCH_RESULTS}, at most ${MAX_SEARCH_RESULTS})`)),
});

type SearchInput = z.output<typeof schema>;

export function createSearchTool(): Tool {
	return {
		name: 'search',
		readOnly: true,
		description: [
			'Search file contents; returns "path:line: text" for each matching line. Literal text by default, regex: true for a JavaScript regular expression.',
			'Smart case unless case_sensitive is given. Skips hidden files, symlinks, dependency/build folders (node_modules, dist, …), binary files and files over 1 MiB.',
		].join(' '),
		parameters: toParameters(schema),
		async plan(args, context) {
			const input = parseArguments('search', schema, args);
			const regex = compilePattern(input);
			const root = await resolvePath(context.workspace, input.path ?? '.');
			let isFolder;
			try {
				isFolder = (await stat(root.canonical)).isDirectory();
			} catch (error) {
				throw new ToolInputError(`search: ${describeFileError(error, root.display)}`);
			}

			const inScope = input.glob ? globMatcher('search', input.glob, true) : () => true;
			return {
				ask: outsideWorkspaceAsk('Search', [root]),
				run: async () => search(input, regex, root, isFolder, inScope, context),
			};
		},
	};
}

function compilePattern(input: SearchInput): RegExp {
	const caseSensitive = input.case_sensitive ?? hasUppercase(input.pattern, input.regex);
	const source = input.regex ? input.pattern : escapeRegExp(input.pattern);
	try {
		return new RegExp(source, caseSensitive ? '' : 'i');
	} catch (error) {
		throw new ToolInputError(`search: invalid regex: ${(error as Error).message}; fix it, or set regex to false to search for the text literally`);
	}
}

/** Smart case looks at letters only, not at escapes such as \S or \W. */
function hasUppercase(pattern: string, isRegex: boolean): boolean {
	return /\p{Lu}/u.test(isRegex ? pattern.replaceAll(/\\./g, '') : pattern);
}

function escapeRegExp(text: string): string {
	return text.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** From this many files on, a worker thread scans the second half while this one scans the first. */
const PARALLEL_FILES = 2000;

async function search(input: SearchInput, regex: RegExp, root: ResolvedPath, isFolder: boolean, inScope: (relative: string) => boolean, context: ToolContext): Promise<ToolResult> {
	const walk: WalkResult = isFolder ? await walkFiles(root.canonical, context.signal) : {files: [{absolute: root.canonical, relative: path.basename(root.canonical)}], directories: [], stoppedBy: null};
	const files = walk.files.filter(file => inScope(file.relative));
	const pattern: ScanPattern = {source: regex.source, flags: regex.flags, literal: input.regex ? null : input.pattern};
	const pause = async () => {
		context.signal.throwIfAborted();
		await new Promise(resolve => {
			setImmediate(resolve);
		});
	};

	const half = files.length >= PARALLEL_FILES ? Math.ceil(files.length / 2) : files.length;
	const second =
		half < files.length
			? scanInWorker(
					files.slice(half).map(file => file.absolute),
					pattern,
					input.max_results,
					context.signal,
				)
			: null;
	try {
		const first = await scanFiles(
			files.slice(0, half).map(file => file.absolute),
			pattern,
			input.max_results,
			pause,
		);
		const hits = first.hits.map(hit => ({file: files[hit.file]!, match: hit.match}));
		const tally = first.tally;
		// The second half's matches come after the first's, in walk order, only while there is room for them.
		if (second && hits.length < input.max_results && !tally.timedOut) {
			const rest = await second.result;
			// Cancelled by an abort while this half waited for it.
			context.signal.throwIfAborted();
			if (rest === null) throw new Error('the search thread stopped a scan nobody had cancelled');
			for (const hit of rest.hits) if (hits.length < input.max_results) hits.push({file: files[half + hit.file]!, match: hit.match});
			for (const key of ['searched', 'binary', 'oversized', 'unreadable', 'longLines'] as const) tally[key] += rest.tally[key];
			tally.timedOut = rest.tally.timedOut;
		}

		return formatResult(input, root, isFolder, hits, tally, walk, context.outputLimit);
	} finally {
		second?.stop();
	}
}

function formatResult(input: SearchInput, root: ResolvedPath, isFolder: boolean, hits: ReadonlyArray<{file: WalkedFile; match: LineMatch}>, tally: Tally, walk: WalkResult, outputLimit: number): ToolResult {
	const name = (file: WalkedFile) => (isFolder ? path.join(root.display, file.relative) : root.display);
	const lines = hits.map(({file, match}) => `${name(file)}:${match.line}: ${snippet(match)}`);
	const filesWithHits = new Set(hits.map(hit => hit.file.absolute)).size;
	const notes: string[] = [
		hits.length === 0
			? `No matches for ${JSON.stringify(input.pattern)} in ${root.display} (${plural(tally.searched, 'file')} searched)`
			: `(${plural(hits.length, 'match', 'matches')} in ${plural(filesWithHits, 'file')}; ${plural(tally.searched, 'file')} searched)`,
	];
	if (hits.length >= input.max_results) {
		notes.push(`stopped at ${input.max_results} matches (max_results); narrow the search or raise max_results (at most ${MAX_SEARCH_RESULTS})`);
	}

	if (tally.timedOut) {
		notes.push(`stopped: the regex took over ${REGEX_TIME_LIMIT_MS / 1000} s on one batch of files (catastrophic backtracking?); simplify the pattern`);
	}

	const limitNote = describeWalkLimit(walk.stoppedBy);
	if (limitNote) {
		notes.push(limitNote);
	}

	const skipped = [
		tally.binary > 0 ? plural(tally.binary, 'binary file') : '',
		tally.oversized > 0 ? `${plural(tally.oversized, 'file')} over 1 MiB` : '',
		tally.unreadable > 0 ? plural(tally.unreadable, 'unreadable file') : '',
		tally.longLines > 0 ? `${plural(tally.longLines, 'line')} over ${MAX_SCANNED_LINE_CHARS} characters` : '',
	].filter(part => part !== '');
	if (skipped.length > 0) {
		notes.push(`skipped: ${skipped.join(', ')}`);
	}

	const footer = notes.join('\n');
	const listed = joinWithinLimit(lines, outputLimit - footer.length - 100);
	const cut = listed.omitted > 0 ? `\n… ${plural(listed.omitted, 'more match', 'more matches')} cut (output limit)` : '';
	return {
		output: [listed.text + cut, footer].filter(part => part.length > 0).join('\n'),
		display: `${plural(hits.length, 'match', 'matches')} for ${input.pattern}`,
	};
}

/** The line trimmed, or for a long line the part around the match, in at most `MAX_SNIPPET_CHARS`. */
function snippet(match: LineMatch): string {
	const line = match.content;
	if (line.trim().length <= MAX_SNIPPET_CHARS) {
		return line.trim();
	}

	const start = Math.max(0, Math.min(match.column - MAX_SNIPPET_CHARS / 4, line.length - MAX_SNIPPET_CHARS));
	const end = start + MAX_SNIPPET_CHARS;
	return `${start > 0 ? '…' : ''}${line.slice(start, end).trim()}${end < line.length ? '…' : ''}`;
}
