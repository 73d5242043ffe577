import {execFile} from 'node:child_process';
import {readFile} from 'node:fs/promises';
import {dirname, extname, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';

/** Files looked at for a syntax error's place: the entry, then the relative modules it imports statically, breadth first. */
export const MAX_CHECKED_FILES = 16;
/** One `node --check` of one file; it only parses. */
const CHECK_TIMEOUT_MS = 10_000;
/** `import … from './x.js'`, `export … from '../y.mjs'`, `import './z.cjs'`, `require('./w')`: the relative ones only. */
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*|\brequire\s*\(\s*)(['"])(\.{1,2}\/[^'"\n]+)\1/g;
const SCRIPT_EXTENSIONS = new Set(['.js', '.mjs', '.cjs']);

export interface SyntaxErrorPlace {
	file: string;
	line: number;
	column: number;
}

/**
 * Where the syntax error that stopped `entry` from loading is. Node puts
 * the place in front of a CommonJS module's stack; an ES module's error
 * carries none, so `node --check` (which parses and runs nothing) reads
 * the entry and then the modules it imports, until one fails with the
 * same message. Null when none tells.
 */
export async function syntaxErrorPlace(error: SyntaxError, entry: string): Promise<SyntaxErrorPlace | null> {
	return placeInHeader(error.stack ?? '') ?? (await checkFrom(entry, error.message));
}

/** Node's header of a syntax error: `FILE:LINE`, the source line, then a caret under the column (tabs kept, so the caret's index is the column's). */
function placeInHeader(text: string): SyntaxErrorPlace | null {
	const [where, , caret] = text.split('\n');
	const match = /^(.+):(\d+)$/.exec(where ?? '');
	if (!match || caret === undefined || !/^\s*\^/.test(caret)) return null;
	const file = match[1]!.startsWith('file://') ? fileURLToPath(match[1]!) : match[1]!;
	return {file, line: Number(match[2]), column: caret.indexOf('^') + 1};
}

async function checkFrom(entry: string, message: string): Promise<SyntaxErrorPlace | null> {
	const queue = [entry];
	const seen = new Set(queue);
	while (queue.length > 0) {
		const file = queue.shift()!;
		const source = await readFile(file, 'utf8').catch(() => null);
		if (source === null) continue;
		const place = await checkSource(file, source, message);
		if (place) return place;
		for (const next of relativeImports(file, source)) {
			if (seen.size >= MAX_CHECKED_FILES) break;
			if (seen.has(next)) continue;
			seen.add(next);
			queue.push(next);
		}
	}

	return null;
}

/** A `.js` file may be either kind (its package's `type`, or node's guess): read as each, the one failing with `message` tells. */
async function checkSource(file: string, source: string, message: string): Promise<SyntaxErrorPlace | null> {
	const kinds = extname(file) === '.mjs' ? ['module'] : extname(file) === '.cjs' ? ['commonjs'] : ['module', 'commonjs'];
	for (const kind of kinds) {
		const found = parseCheck(await nodeCheck(source, kind));
		if (found && (found.message === message || kinds.length === 1)) return {file, line: found.line, column: found.column};
	}

	return null;
}

async function nodeCheck(source: string, kind: string): Promise<string> {
	return new Promise(done => {
		const child = execFile(process.execPath, [`--input-type=${kind}`, '--check'], {timeout: CHECK_TIMEOUT_MS, encoding: 'utf8'}, (_error, _stdout, stderr) => done(stderr));
		child.stdin?.on('error', () => {});
		child.stdin?.end(source);
	});
}

/** `[stdin]:LINE`, the line, the caret, a blank line, `SyntaxError: MESSAGE` (after any warnings node printed first). */
function parseCheck(stderr: string): {line: number; column: number; message: string} | null {
	const lines = stderr.split('\n');
	const at = lines.findIndex(line => /^\[stdin\]:\d+$/.test(line));
	const caret = lines[at + 2];
	const error = lines.slice(at + 3).find(line => line.startsWith('SyntaxError: '));
	if (at < 0 || caret === undefined || !/^\s*\^/.test(caret) || error === undefined) return null;
	return {line: Number(lines[at]!.slice('[stdin]:'.length)), column: caret.indexOf('^') + 1, message: error.slice('SyntaxError: '.length)};
}

function relativeImports(file: string, source: string): string[] {
	const found: string[] = [];
	for (const match of source.matchAll(RELATIVE_IMPORT)) {
		const target = resolve(dirname(file), match[2]!);
		if (SCRIPT_EXTENSIONS.has(extname(target))) found.push(target);
	}

	return found;
}
