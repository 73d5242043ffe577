import path from 'node:path';
import picomatch from 'picomatch';
import {globMatcher} from '../tools/glob-matcher.js';

/** Where a rule's relative and `~` paths start, and how the platform compares names. */
export interface PathPlace {
	/** The canonical workspace: a relative pattern is relative to it. */
	workspace: string;
	home: string;
	/** Windows: `\` separates, and a drive starts an absolute path. */
	windows: boolean;
	/** File systems that ignore case (Windows, macOS): a rule matches whatever case a path is written in. */
	nocase: boolean;
}

export function platformPlace(workspace: string, home: string): PathPlace {
	return {workspace, home, windows: process.platform === 'win32', nocase: process.platform === 'win32' || process.platform === 'darwin'};
}

/** Characters picomatch reads as glob syntax: escaped in the literal part (a workspace named `a[1]` is a name, not a class). */
const GLOB_SYNTAX = /[\\*?[\]{}()!+@|]/g;

/**
 * A `read(…)`, `edit(…)` or `write(…)` pattern as a matcher of absolute
 * paths: relative to the workspace, absolute, or under `~`, with `..` in
 * its literal part resolved (matched paths are resolved too, so
 * `src/../x` is never inside `src/**`). Hidden names match like any other.
 * Throws an Error saying why a pattern could never match.
 */
export function compilePathPattern(text: string, place: PathPlace): (absolute: string) => boolean {
	const written = place.windows ? text.replaceAll('\\', '/') : text;
	if (written.endsWith('/')) throw new Error('it ends with "/", and a path pattern matches files: write DIR/** for everything under a folder');
	const {root, rest} = splitRoot(written, place);
	if (rest.startsWith('!')) throw new Error('a pattern cannot be negated; put the paths in another list');
	const scan = picomatch.scan(rest);
	const literal = scan.isGlob ? scan.base : rest;
	const glob = scan.isGlob ? scan.glob : '';
	if (glob.split('/').some(segment => segment === '..' || segment === '.')) throw new Error('"." or ".." after a wildcard cannot match a resolved path; put them before the first wildcard');
	const base = toSlashes(path.resolve(root, literal), place);
	const escaped = base.replaceAll(GLOB_SYNTAX, '\\$&');
	const pattern = glob === '' ? escaped : `${escaped.endsWith('/') ? escaped : `${escaped}/`}${glob}`;
	const isMatch = globMatcher('permission rule', pattern, false, {dot: true, nocase: place.nocase});
	return absolute => isMatch(toSlashes(absolute, place));
}

function splitRoot(written: string, place: PathPlace): {root: string; rest: string} {
	if (written === '~') return {root: place.home, rest: ''};
	if (written.startsWith('~/')) return {root: place.home, rest: written.slice(2)};
	if (written.startsWith('~')) throw new Error('only "~" and "~/" are understood, not another user\'s "~name"');
	const absolute = place.windows ? /^(?:[A-Za-z]:)?\//.exec(written) : /^\//.exec(written);
	if (absolute) return {root: absolute[0], rest: written.slice(absolute[0].length)};
	return {root: place.workspace, rest: written};
}

function toSlashes(value: string, place: PathPlace): string {
	return place.windows ? value.replaceAll('\\', '/') : value;
}
