import * as z from 'zod/mini';
import {parseArguments} from './arguments.js';
import {describeFileError, describeTooLarge, looksBinary, readFileUpTo} from './file-content.js';
import {plural} from './format.js';
import {toParameters} from './parameters.js';
import {outsideWorkspaceAsk, pathArgument, resolvePath, type ResolvedPath} from './paths.js';
import type {Tool, ToolContext, ToolResult} from './types.js';

export const MAX_READ_FILES = 20;
export const DEFAULT_READ_LINES = 2000;
export const MAX_LINE_CHARS = 2000;
export const MAX_READ_BYTES = 10 * 1024 * 1024;

const schema = z.strictObject({
	files: z
		.array(
			z.strictObject({
				path: pathArgument('File path, relative to the workspace or absolute'),
				offset: z.optional(z.number().check(z.int(), z.minimum(1))).check(z.describe('First line to return, 1-based (default 1)')),
				limit: z.optional(z.number().check(z.int(), z.minimum(1))).check(z.describe(`Most lines to return (default ${DEFAULT_READ_LINES})`)),
			}),
		)
		.check(z.minLength(1), z.maxLength(MAX_READ_FILES), z.describe(`Files to read (1–${MAX_READ_FILES})`)),
});

type FileRequest = z.output<typeof schema>['files'][number];

export function createReadTool(): Tool {
	return {
		name: 'read',
		readOnly: true,
		description: [
			`Read up to ${MAX_READ_FILES} text files at once. Each file comes back under a "==> path <==" header with numbered lines (number, tab, text).`,
			`Returns ${DEFAULT_READ_LINES} lines from offset 1 unless told otherwise and says how to continue; lines over ${MAX_LINE_CHARS} characters are cut.`,
			'Refuses folders (use glob), binary files and files over 10 MiB (use search).',
		].join(' '),
		parameters: toParameters(schema),
		async plan(args, context) {
			const {files} = parseArguments('read', schema, args);
			const targets = await Promise.all(files.map(async file => resolvePath(context.workspace, file.path)));
			return {
				ask: outsideWorkspaceAsk('Read', targets),
				run: async () => readFiles(files, targets, context),
			};
		},
	};
}

async function readFiles(files: readonly FileRequest[], targets: readonly ResolvedPath[], context: ToolContext): Promise<ToolResult> {
	// Each file gets an equal share of the output so one long file cannot crowd out the rest.
	const share = Math.floor(context.outputLimit / files.length);
	// One after another: each file may be 10 MiB, and only one needs to be in memory at a time.
	const sections: Section[] = [];
	for (const [index, file] of files.entries()) {
		sections.push(await readSection(file, targets[index]!, share));
	}

	const failed = sections.filter(section => section.failed).length;
	const lines = sections.reduce((sum, section) => sum + section.lines, 0);
	return {
		output: sections.map(section => section.text).join('\n\n'),
		isError: failed === files.length,
		display: `Read ${plural(files.length - failed, 'file')}, ${plural(lines, 'line')}${failed > 0 ? ` (${failed} failed)` : ''}`,
	};
}

interface Section {
	text: string;
	failed: boolean;
	lines: number;
}

async function readSection(file: FileRequest, target: ResolvedPath, share: number): Promise<Section> {
	const header = `==> ${target.display} <==`;
	const fail = (message: string): Section => ({text: `${header}\nError: ${message}`, failed: true, lines: 0});
	let read;
	try {
		read = await readFileUpTo(target.absolute, MAX_READ_BYTES);
	} catch (error) {
		return fail(describeFileError(error, target.display));
	}

	switch (read.kind) {
		case 'directory': {
			return fail(`${target.display} is a folder; use glob to list its files`);
		}

		case 'special': {
			return fail(`${target.display} is not a regular file`);
		}

		case 'too-large': {
			return fail(`${describeTooLarge(target.display, read.size, MAX_READ_BYTES)}; use search to find the lines you need`);
		}

		case 'file': {
			break;
		}
	}

	if (looksBinary(read.bytes)) {
		return fail(`${target.display} is a binary file`);
	}

	const bytes = read.bytes;
	if (bytes.length === 0) {
		return {text: `${header}\n(empty file)`, failed: false, lines: 0};
	}

	const offset = file.offset ?? 1;
	const start = lineStart(bytes, offset);
	if (start === undefined) {
		const total = countLines(bytes, 0);
		return fail(`${target.display} has ${plural(total, 'line')}; offset ${offset} is past the end`);
	}

	return numberedSection(header, bytes, start, offset, file.limit ?? DEFAULT_READ_LINES, share);
}

const NEWLINE = 0x0a;

/** Byte offset where line `number` (1-based) starts, or undefined past the last line. */
function lineStart(bytes: Buffer, number: number): number | undefined {
	let start = 0;
	for (let line = 1; line < number; line++) {
		const newline = bytes.indexOf(NEWLINE, start);
		if (newline === -1 || newline + 1 === bytes.length) {
			return undefined;
		}

		start = newline + 1;
	}

	return start;
}

/** Lines from byte `start` to the end, counted without making strings; a last line without a newline counts. */
function countLines(bytes: Buffer, start: number): number {
	let count = 0;
	for (let newline = bytes.indexOf(NEWLINE, start); newline !== -1; newline = bytes.indexOf(NEWLINE, newline + 1)) {
		count++;
	}

	return bytes.length > start && bytes[bytes.length - 1] !== NEWLINE ? count + 1 : count;
}

/** Lines from `offset` (starting at byte `start`), decoded one at a time, until the limit, the end or the share. */
function numberedSection(header: string, bytes: Buffer, start: number, offset: number, limit: number, share: number): Section {
	const out = [header];
	let length = header.length;
	let position = start;
	let next = offset;
	let shareReached = false;
	for (; next < offset + limit && position < bytes.length; next++) {
		const newline = bytes.indexOf(NEWLINE, position);
		const end = newline === -1 ? bytes.length : newline;
		const line = numberedLine(next, bytes.toString('utf8', position, end));
		// Always show at least one line, so a tiny share still makes progress.
		if (next > offset && length + 1 + line.length > share) {
			shareReached = true;
			break;
		}

		out.push(line);
		length += 1 + line.length;
		position = end + 1;
	}

	// Counted only when something is left, and then only from where the output stopped.
	const remaining = position < bytes.length ? countLines(bytes, position) : 0;
	if (remaining > 0) {
		const reason = shareReached ? ' (output limit reached)' : '';
		out.push(`… ${plural(remaining, 'more line')}${reason}; read with offset=${next}`);
	}

	return {text: out.join('\n'), failed: false, lines: next - offset};
}

function numberedLine(number: number, raw: string): string {
	const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
	const text = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} … [line cut: ${line.length - MAX_LINE_CHARS} more characters]` : line;
	return `${String(number).padStart(6)}\t${text}`;
}
