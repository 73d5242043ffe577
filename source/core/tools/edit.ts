import * as z from 'zod/mini';
import {parseArguments} from './arguments.js';
import {diffTexts, type TextDiff} from './diff-text.js';
import {describeFileError, describeTooLarge, looksBinary, readFileUpTo} from './file-content.js';
import {plural} from './format.js';
import {toParameters} from './parameters.js';
import {pathArgument, resolvePath, type ResolvedPath} from './paths.js';
import {replaceFile} from './replace-file.js';
import {snapshotHolds, takeSnapshot} from './snapshot.js';
import {ToolInputError, ToolRunError, type Tool} from './types.js';
import {keepChange, type ChangeKeeper} from './keep-change.js';

export const MAX_EDIT_BYTES = 10 * 1024 * 1024;

const schema = z.strictObject({
	path: pathArgument('File to edit, relative to the workspace or absolute'),
	old_text: z.string().check(z.minLength(1), z.describe('Exact text to replace, including whitespace and indentation; must match once unless replace_all')),
	new_text: z.string().check(z.describe('Replacement text')),
	replace_all: z._default(z.boolean(), false).check(z.describe('Replace every occurrence of old_text instead of exactly one')),
});

/** `history`: where the file's before-image is kept for /rewind (the agent's file history) and its temp file noted; none, nothing is kept. */
export function createEditTool(options: {history?: ChangeKeeper | undefined} = {}): Tool {
	return {
		name: 'edit',
		description: [
			'Replace text in one existing file. old_text must match the file exactly (whitespace and indentation included) and only once, unless replace_all is true; include surrounding lines to make it unique.',
			'In a file with CRLF line endings, newlines in old_text and new_text are taken as CRLF. Read the file first.',
		].join(' '),
		parameters: toParameters(schema),
		async plan(args, context) {
			const input = parseArguments('edit', schema, args);
			const target = await resolvePath(context.workspace, input.path);
			const bytes = await readEditable(target);
			const before = decodeUtf8(bytes, target);
			const {after, count} = replaceText(before, input.old_text, input.new_text, input.replace_all, target);
			const snapshot = await takeSnapshot(target.canonical, bytes);
			const diff = await diffTexts(target.display, before, after);
			const where = target.inside ? '' : ' (outside the workspace)';
			return {
				ask: {title: `Edit ${target.display}${where}`, detail: diff.text, insideWorkspace: target.inside},
				async run() {
					if (!(await snapshotHolds(target.canonical, snapshot))) {
						throw new ToolRunError(`edit: ${target.display} changed since the edit was planned (after approval was asked); read it again and redo the edit`);
					}

					const kept = await keepChange(options.history, context, {path: target.canonical, before: bytes, after: Buffer.from(after), by: 'edit'});
					try {
						await replaceFile(target.canonical, after, options.history?.writes);
					} catch (error) {
						await kept.failed();
						throw new ToolRunError(`edit: ${describeFileError(error, target.display)}`);
					}

					return {output: `Edited ${target.display}: ${plural(count, 'replacement')}, ${summarize(diff)}`, display: `Edited ${target.display}`};
				},
			};
		},
	};
}

async function readEditable(target: ResolvedPath): Promise<Buffer> {
	let read;
	try {
		read = await readFileUpTo(target.absolute, MAX_EDIT_BYTES);
	} catch (error) {
		const hint = (error as NodeJS.ErrnoException).code === 'ENOENT' ? '; use write to create a file' : '';
		throw new ToolInputError(`edit: ${describeFileError(error, target.display)}${hint}`);
	}

	switch (read.kind) {
		case 'file': {
			if (looksBinary(read.bytes)) {
				throw new ToolInputError(`edit: ${target.display} is a binary file`);
			}

			return read.bytes;
		}

		case 'directory': {
			throw new ToolInputError(`edit: ${target.display} is a folder`);
		}

		case 'special': {
			throw new ToolInputError(`edit: ${target.display} is not a regular file`);
		}

		case 'too-large': {
			throw new ToolInputError(`edit: ${describeTooLarge(target.display, read.size, MAX_EDIT_BYTES)}`);
		}
	}
}

// Fatal so a non-UTF-8 file is refused rather than rewritten with replacement characters; the BOM is kept as text so it survives.
const utf8 = new TextDecoder('utf-8', {fatal: true, ignoreBOM: true});

function decodeUtf8(bytes: Buffer, target: ResolvedPath): string {
	try {
		return utf8.decode(bytes);
	} catch {
		throw new ToolInputError(`edit: ${target.display} is not valid UTF-8 text; edit cannot rewrite it safely`);
	}
}

/**
 * Apply the replacement. In a file whose lines mostly end in CRLF, bare LFs
 * in old_text and new_text become CRLF, so a model writing plain newlines
 * still matches and the file keeps its line endings. If that finds nothing
 * (a mixed file), old_text is tried exactly as given.
 */
function replaceText(before: string, oldText: string, newText: string, replaceAll: boolean, target: ResolvedPath): {after: string; count: number} {
	let search = oldText;
	let replacement = newText;
	if (usesCrlf(before)) {
		search = toCrlf(oldText);
		replacement = toCrlf(newText);
		if (countOccurrences(before, search) === 0 && countOccurrences(before, oldText) > 0) {
			search = oldText;
		}
	}

	const count = countOccurrences(before, search);
	if (count === 0) {
		throw new ToolInputError(`edit: old_text was not found in ${target.display}. ${notFoundHint(before, oldText)}`);
	}

	if (count > 1 && !replaceAll) {
		throw new ToolInputError(`edit: old_text matches ${count} times in ${target.display}; add surrounding lines to make it unique, or set replace_all to true to replace all ${count}`);
	}

	if (search === replacement) {
		throw new ToolInputError('edit: new_text is the same as old_text; nothing would change');
	}

	// split/join and slice, not String.replace, so `$&` and friends in new_text stay literal.
	const after = replaceAll ? before.split(search).join(replacement) : spliceFirst(before, search, replacement);
	return {after, count: replaceAll ? count : 1};
}

function spliceFirst(text: string, search: string, replacement: string): string {
	const index = text.indexOf(search);
	return text.slice(0, index) + replacement + text.slice(index + search.length);
}

function countOccurrences(text: string, search: string): number {
	let count = 0;
	for (let index = text.indexOf(search); index !== -1; index = text.indexOf(search, index + search.length)) {
		count++;
	}

	return count;
}

function usesCrlf(text: string): boolean {
	const crlf = text.split('\r\n').length - 1;
	const lf = text.split('\n').length - 1;
	return crlf > 0 && crlf >= lf - crlf;
}

function toCrlf(text: string): string {
	return text.replaceAll(/\r?\n/g, '\r\n');
}

function notFoundHint(text: string, oldText: string): string {
	const squash = (value: string) => value.replaceAll(/\s+/g, ' ').trim();
	if (squash(text).includes(squash(oldText))) {
		return 'The text is there with different whitespace or indentation: copy it exactly from the file.';
	}

	return 'It must match the file exactly, including whitespace and indentation; read the file again and copy the text from it.';
}

function summarize(diff: TextDiff): string {
	const at = diff.firstLine === null ? '' : ` from line ${diff.firstLine}`;
	return `+${diff.added} −${diff.removed} lines${at}`;
}
