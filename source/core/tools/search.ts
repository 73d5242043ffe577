import {closeSync, constants, openSync, readSync} from 'node:fs';
import {stat} from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod/mini';
import {parseArguments} from './arguments.js';
import {describeFileError, looksBinary} from './file-content.js';
import {joinWithinLimit, plural} from './format.js';
import {globMatcher} from './glob-matcher.js';
import {MAX_SCANNED_LINE_CHARS, REGEX_TIME_LIMIT_MS, matchLines, type LineMatch} from './match-lines.js';
import {toParameters} from './parameters.js';
import {outsideWorkspaceAsk, pathArgument, resolvePath, type ResolvedPath} from './paths.js';
import {ToolInputError, type Tool, type ToolContext, type ToolResult} from './types.js';
import {describeWalkLimit, walkFiles, type WalkedFile, type WalkResult} from './walk.js';

export const DEFAULT_SEARCH_RESULTS = 200;
export const MAX_SEARCH_RESULTS = 1000;
/** Seed §9: oversized files are skipped. */
export const MAX_SEARCH_FILE_BYTES = 1024 * 1024;
export const MAX_SNIPPET_CHARS = 200;
/** Files are matched in batches of about this much text, each under one regex time limit. */
const BATCH_CHARS = 1024 * 1024;
/** Files read between two turns of the event loop. */
const READ_CHUNK = 128;

const schema = z.strictObject({
	pattern: z.string().check(z.minLength(1), z.describe('Text to find; a JavaScript regular expression when regex is true')),
	path: z.optional(pathArgument('File or folder to search (default: the workspace)')),
	glob: z
		.optional(z.string().check(z.minLength(1)))
		.check(z.describe('Only search files whose path relative to path matches this glob; a glob without "/" matches file names at any depth, e.g. "*.ts"')),
	regex: z._default(z.boolean(), false).check(z.describe('Treat pattern as a regular expression (default: literal text)')),
	case_sensitive: z
		.optional(z.boolean())
		.check(z.describe('Default: smart case, i.e. case-insensitive unless pattern contains an uppercase letter')),
	max_results: z
		._default(z.number().check(z.int(), z.minimum(1), z.maximum(MAX_SEARCH_RESULTS)), DEFAULT_SEARCH_RESULTS)
		.check(z.describe(`Most matching lines to return (default ${DEFAULT_SEARCH_RESULTS}, at most ${MAX_SEARCH_RESULTS})`)),
});

type SearchInput = z.output<typeof schema>;

export function createSearchTool(): Tool {
	return {
		name: 'search',
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

interface Tally {
	searched: number;
	binary: number;
	oversized: number;
	unreadable: number;
	longLines: number;
	timedOut: boolean;
}

async function search(input: SearchInput, regex: RegExp, root: ResolvedPath, isFolder: boolean, inScope: (relative: string) => boolean, context: ToolContext): Promise<ToolResult> {
	const walk: WalkResult = isFolder
		? await walkFiles(root.canonical, context.signal)
		: {files: [{absolute: root.canonical, relative: path.basename(root.canonical)}], stoppedBy: null};
	const files = walk.files.filter(file => inScope(file.relative));
	const tally: Tally = {searched: 0, binary: 0, oversized: 0, unreadable: 0, longLines: 0, timedOut: false};
	const hits: Array<{file: WalkedFile; match: LineMatch}> = [];
	let batch: Array<{file: WalkedFile; text: string}> = [];
	let batchChars = 0;

	const cannotMatch = quickRejecter(input, regex);
	const flush = () => {
		const result = matchLines(
			regex,
			batch.map(item => item.text),
			input.max_results - hits.length,
		);
		tally.longLines += result.longLinesSkipped;
		tally.timedOut = result.timedOut;
		for (const match of result.matches) {
			hits.push({file: batch[match.text]!.file, match});
		}

		batch = [];
		batchChars = 0;
	};

	for (let start = 0; start < files.length && hits.length < input.max_results && !tally.timedOut; start += READ_CHUNK) {
		context.signal.throwIfAborted();
		// Small files are read synchronously, a chunk at a time: four system calls each instead of four trips
		// through the thread pool. Between chunks the event loop runs (a screen stays live, an abort lands).
		if (start > 0) await yieldToEventLoop();
		for (const file of files.slice(start, start + READ_CHUNK)) {
			if (hits.length >= input.max_results || tally.timedOut) break;
			const text = readSearchable(file.absolute, tally, cannotMatch);
			if (text === null) continue;
			tally.searched++;
			batch.push({file, text});
			batchChars += text.length;
			if (batchChars >= BATCH_CHARS) flush();
		}
	}

	if (batch.length > 0 && hits.length < input.max_results && !tally.timedOut) {
		flush();
	}

	return formatResult(input, root, isFolder, hits, tally, walk, context.outputLimit);
}

/** One buffer for every read: a file within the limit fits, and one byte more tells a file over it. */
const readBuffer = Buffer.allocUnsafe(MAX_SEARCH_FILE_BYTES + 1);

/**
 * A file's text for searching, or null (counted in the tally) when it is not
 * a readable regular text file within the size limit. Three system calls:
 * open (non-blocking, so a FIFO put where a file was walked cannot hang it;
 * reading one then fails, as reading a folder does), read, close.
 */
function readSearchable(file: string, tally: Tally, cannotMatch: (bytes: Buffer) => boolean): string | null {
	let fd: number;
	try {
		fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
	} catch {
		tally.unreadable++;
		return null;
	}

	try {
		let length = 0;
		for (let read = -1; read !== 0 && length < readBuffer.length; length += read) read = readSync(fd, readBuffer, length, readBuffer.length - length, null);
		if (length > MAX_SEARCH_FILE_BYTES) {
			tally.oversized++;
			return null;
		}

		const content = readBuffer.subarray(0, length);
		if (looksBinary(content)) {
			tally.binary++;
			return null;
		}

		// Searched, and found to hold no match without decoding it.
		if (cannotMatch(content)) return '';
		return content.toString('utf8');
	} catch {
		tally.unreadable++;
		return null;
	} finally {
		closeSync(fd);
	}
}

/**
 * A test on a file's bytes that proves it holds no match, for literal ASCII
 * patterns (most searches): case-sensitive, the bytes must contain the
 * pattern's; otherwise the bytes read as Latin-1 (one character a byte, no
 * decoding) must match the pattern's regex, which for an ASCII literal is
 * exactly "some line's UTF-8 text matches" (no byte of a multi-byte
 * character is ASCII or case-folds to it). Anything else is always decoded.
 */
function quickRejecter(input: SearchInput, regex: RegExp): (bytes: Buffer) => boolean {
	// eslint-disable-next-line no-control-regex
	if (input.regex || !/^[\x20-\x7e]+$/.test(input.pattern)) return () => false;
	if (!regex.flags.includes('i')) {
		const needle = Buffer.from(input.pattern, 'latin1');
		return bytes => !bytes.includes(needle);
	}

	return bytes => !regex.test(bytes.toString('latin1'));
}

async function yieldToEventLoop(): Promise<void> {
	return new Promise(resolve => {
		setImmediate(resolve);
	});
}

function formatResult(
	input: SearchInput,
	root: ResolvedPath,
	isFolder: boolean,
	hits: ReadonlyArray<{file: WalkedFile; match: LineMatch}>,
	tally: Tally,
	walk: WalkResult,
	outputLimit: number,
): ToolResult {
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
