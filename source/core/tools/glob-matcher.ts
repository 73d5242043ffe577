import picomatch from 'picomatch';
import {ToolInputError} from './types.js';

/**
 * A matcher for `/`-separated relative paths (hidden segments only match
 * when the pattern names them). `anyDepth` lets a pattern without `/` match
 * file names at any depth, as ripgrep's --glob does.
 */
export function globMatcher(tool: string, pattern: string, anyDepth: boolean): (relative: string) => boolean {
	try {
		return picomatch(pattern, {dot: false, basename: anyDepth && !pattern.includes('/')});
	} catch (error) {
		throw new ToolInputError(`${tool}: invalid glob ${JSON.stringify(pattern)}: ${(error as Error).message}`);
	}
}
