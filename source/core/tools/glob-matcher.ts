import picomatch from 'picomatch';
import {ToolInputError} from './types.js';

/**
 * A matcher for `/`-separated relative paths (hidden segments only match
 * when the pattern names them, unless `dot`). `anyDepth` lets a pattern
 * without `/` match file names at any depth, as ripgrep's --glob does;
 * `nocase` is for file systems that ignore case (permission rules).
 */
export function globMatcher(tool: string, pattern: string, anyDepth: boolean, options: {dot?: boolean; nocase?: boolean} = {}): (relative: string) => boolean {
	try {
		return picomatch(pattern, {dot: options.dot === true, nocase: options.nocase === true, basename: anyDepth && !pattern.includes('/')});
	} catch (error) {
		throw new ToolInputError(`${tool}: invalid glob ${JSON.stringify(pattern)}: ${(error as Error).message}`);
	}
}
