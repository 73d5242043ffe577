import {mkdir, stat} from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod/mini';
import {parseArguments} from './arguments.js';
import {diffTexts} from './diff-text.js';
import {describeFileError, looksBinary} from './file-content.js';
import {clipLine, countLines, formatBytes, plural} from './format.js';
import {toParameters} from './parameters.js';
import {pathArgument, resolvePath, type ResolvedPath} from './paths.js';
import {replaceFile} from './replace-file.js';
import {snapshotHolds, takeSnapshot, type FileSnapshot} from './snapshot.js';
import {ToolInputError, ToolRunError, type Tool, type ToolResult} from './types.js';
import {keepChange, type ChangeKeeper} from './keep-change.js';
import type {TempJournal} from '../fs/write-journal.js';

export const MAX_WRITE_FILES = 20;

const schema = z.strictObject({
	files: z
		.array(
			z.strictObject({
				path: pathArgument('File path, relative to the workspace or absolute; missing folders are created'),
				content: z.string().check(z.describe('The complete new content of the file')),
			}),
		)
		.check(z.minLength(1), z.maxLength(MAX_WRITE_FILES), z.describe(`Files to write (1–${MAX_WRITE_FILES})`)),
});

interface PlannedFile {
	target: ResolvedPath;
	content: string;
	snapshot: FileSnapshot;
}

/** `history`: where each file's before-image is kept for /rewind (the agent's file history) and its temp file noted; none, nothing is kept. */
export function createWriteTool(options: {history?: ChangeKeeper | undefined} = {}): Tool {
	return {
		name: 'write',
		description: [
			`Create or replace up to ${MAX_WRITE_FILES} files with the given complete content, creating missing folders.`,
			'Each file is replaced atomically and keeps its permissions. For a change to part of a file, prefer edit.',
		].join(' '),
		parameters: toParameters(schema),
		async plan(args, context) {
			const {files} = parseArguments('write', schema, args);
			const planned: PlannedFile[] = [];
			const seen = new Set<string>();
			for (const file of files) {
				const target = await resolvePath(context.workspace, file.path);
				if (seen.has(target.canonical)) {
					throw new ToolInputError(`write: ${target.display} is listed more than once; write each file once`);
				}

				seen.add(target.canonical);
				if (await isDirectory(target.canonical)) {
					throw new ToolInputError(`write: ${target.display} is a folder; give a file path`);
				}

				planned.push({target, content: file.content, snapshot: await snapshotFor(target)});
			}

			return {
				ask: {
					title: writeTitle(planned),
					detail: (await Promise.all(planned.map(async file => describeChange(file)))).join('\n\n'),
					insideWorkspace: planned.every(file => file.target.inside),
				},
				run: async () =>
					writeFiles(
						planned,
						async file =>
							keepChange(options.history, context, {path: file.target.canonical, before: file.snapshot.exists ? (file.snapshot.bytes ?? undefined) : null, after: Buffer.from(file.content), by: 'write'}),
						options.history?.writes,
					),
			};
		},
	};
}

async function writeFiles(planned: readonly PlannedFile[], keep: (file: PlannedFile) => ReturnType<typeof keepChange>, journal: TempJournal | undefined): Promise<ToolResult> {
	// Check every file before writing any, so a stale approval changes nothing.
	for (const file of planned) {
		if (!(await snapshotHolds(file.target.canonical, file.snapshot))) {
			throw new ToolRunError(`write: ${file.target.display} changed since the write was planned (after approval was asked); read it again and redo the write`);
		}
	}

	const lines: string[] = [];
	for (const file of planned) {
		const kept = await keep(file);
		try {
			await mkdir(path.dirname(file.target.canonical), {recursive: true});
			await replaceFile(file.target.canonical, file.content, journal);
		} catch (error) {
			await kept.failed();
			const done = lines.length > 0 ? `\n${lines.join('\n')}\nThe other files were not written.` : '';
			throw new ToolRunError(`write: ${describeFileError(error, file.target.display)}${done}`);
		}

		const bytes = Buffer.byteLength(file.content);
		lines.push(`Wrote ${file.target.display}: ${plural(bytes, 'byte')}, ${plural(countLines(file.content), 'line')} (${file.snapshot.exists ? 'replaced' : 'new file'})`);
	}

	return {output: lines.join('\n'), display: `Wrote ${plural(planned.length, 'file')}`};
}

function writeTitle(planned: readonly PlannedFile[]): string {
	const outside = planned.filter(file => !file.target.inside).length;
	const where = outside > 0 ? ` (${outside} outside the workspace)` : '';
	return clipLine(`Write ${plural(planned.length, 'file')}${where}: ${planned.map(file => file.target.display).join(', ')}`, 120);
}

async function describeChange(file: PlannedFile): Promise<string> {
	const {display} = file.target;
	const {snapshot} = file;
	// A new file is shown whole: the approval is for every line of it (the chat screen scrolls it).
	if (!snapshot.exists) return `${display}: new file, ${plural(countLines(file.content), 'line')}\n${file.content}`;

	if (!snapshot.bytes) {
		return `${display}: replaces a file of ${formatBytes(snapshot.size)} (too large to diff) with ${plural(countLines(file.content), 'line')}`;
	}

	if (looksBinary(snapshot.bytes)) {
		return `${display}: replaces a binary file of ${formatBytes(snapshot.size)} with ${plural(countLines(file.content), 'line')}`;
	}

	const before = snapshot.bytes.toString('utf8');
	return before === file.content ? `${display}: unchanged (same content)` : (await diffTexts(display, before, file.content)).text;
}

async function snapshotFor(target: ResolvedPath): Promise<FileSnapshot> {
	try {
		return await takeSnapshot(target.canonical);
	} catch (error) {
		throw new ToolInputError(`write: ${describeFileError(error, target.display)}`);
	}
}

async function isDirectory(file: string): Promise<boolean> {
	try {
		return (await stat(file)).isDirectory();
	} catch {
		return false;
	}
}
