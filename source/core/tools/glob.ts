import {stat} from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import * as z from 'zod/mini';
import {parseArguments} from './arguments.js';
import {describeFileError} from './file-content.js';
import {joinWithinLimit, plural} from './format.js';
import {globMatcher} from './glob-matcher.js';
import {toParameters} from './parameters.js';
import {outsideWorkspaceAsk, pathArgument, resolvePath, type ResolvedPath} from './paths.js';
import {ToolInputError, type Tool, type ToolContext, type ToolResult} from './types.js';
import {describeWalkLimit, walkFiles} from './walk.js';

export const MAX_GLOB_RESULTS = 1000;

const schema = z.strictObject({
	pattern: z.string().check(z.minLength(1), z.describe('Glob matched against file paths relative to path, e.g. "**/*.ts" or "src/*.{js,json}"')),
	path: z.optional(pathArgument('Folder to search in (default: the workspace)')),
});

export function createGlobTool(): Tool {
	return {
		name: 'glob',
		readOnly: true,
		description: [
			'Find files by glob pattern (picomatch syntax: *, **, ?, {a,b}, [abc]) matched against paths relative to path.',
			`Lists files, newest first, at most ${MAX_GLOB_RESULTS}. Hidden files, symlinks and dependency/build folders such as node_modules and dist are skipped unless named in the pattern.`,
		].join(' '),
		parameters: toParameters(schema),
		async plan(args, context) {
			const input = parseArguments('glob', schema, args);
			if (path.isAbsolute(input.pattern)) {
				throw new ToolInputError('glob: pattern must be relative; put the folder in path');
			}

			const root = await resolvePath(context.workspace, input.path ?? '.');
			await requireFolder(root);
			// Walk only below the pattern's literal prefix ("src/lib/**/*.ts" walks src/lib).
			const base = literalBase(input.pattern);
			const start = base === '' ? root : await resolvePath(context.workspace, path.join(root.absolute, base));
			const isMatch = globMatcher('glob', input.pattern, false);
			return {
				ask: outsideWorkspaceAsk('Glob', [start]),
				run: async () => globFiles(input.pattern, isMatch, root, start, base, context),
			};
		},
	};
}

/** The folder a glob pattern walks from, relative to its `path`: the literal part before the first wildcard. */
export function literalBase(pattern: string): string {
	const scan = picomatch.scan(pattern);
	if (scan.isGlob) {
		return scan.base;
	}

	// A plain path: its folder.
	const folder = path.posix.dirname(pattern);
	return folder === '.' ? '' : folder;
}

async function requireFolder(root: ResolvedPath): Promise<void> {
	let stats;
	try {
		stats = await stat(root.canonical);
	} catch (error) {
		throw new ToolInputError(`glob: ${describeFileError(error, root.display)}`);
	}

	if (!stats.isDirectory()) {
		throw new ToolInputError(`glob: ${root.display} is a file, not a folder; use read to see it`);
	}
}

async function globFiles(pattern: string, isMatch: (relative: string) => boolean, root: ResolvedPath, start: ResolvedPath, base: string, context: ToolContext): Promise<ToolResult> {
	const walk = await walkFiles(start.canonical, context.signal);
	const matched = walk.files.filter(file => isMatch(base === '' ? file.relative : `${base}/${file.relative}`));
	const dated = await Promise.all(
		matched.map(async file => ({
			name: path.join(start.display, file.relative),
			mtimeMs: await modifiedTime(file.absolute),
		})),
	);
	dated.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.name < b.name ? -1 : 1));

	const notes: string[] = [];
	const limitNote = describeWalkLimit(walk.stoppedBy);
	if (dated.length === 0) {
		const hint = pattern.includes('/') || pattern.includes('**') ? '' : `; the pattern matches names directly in ${root.display} only, use "**/${pattern}" for any depth`;
		notes.push(`No files match "${pattern}" in ${root.display}${hint}`);
	} else if (dated.length > MAX_GLOB_RESULTS) {
		notes.push(`… and ${plural(dated.length - MAX_GLOB_RESULTS, 'more file')} (${dated.length} match; the ${MAX_GLOB_RESULTS} newest are listed); narrow the pattern or path`);
	} else {
		notes.push(`(${plural(dated.length, 'file')})`);
	}

	if (limitNote) {
		notes.push(limitNote);
	}

	const footer = notes.join('\n');
	const names = dated.slice(0, MAX_GLOB_RESULTS).map(file => file.name);
	const listed = joinWithinLimit(names, context.outputLimit - footer.length - 100);
	const cut = listed.omitted > 0 ? `\n… ${listed.omitted} more listed files cut (output limit)` : '';
	return {
		output: [listed.text + cut, footer].filter(part => part.length > 0).join('\n'),
		display: `${plural(dated.length, 'file')} match ${pattern}`,
	};
}

async function modifiedTime(file: string): Promise<number> {
	try {
		return (await stat(file)).mtimeMs;
	} catch {
		// Deleted since the walk: sort it last rather than fail the listing.
		return 0;
	}
}
