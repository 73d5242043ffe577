import {parseArgs} from 'node:util';
import {renderAnsi, type ColourDepth} from '../../brand/render-ansi.js';
import {renderAscii} from '../../brand/render-ascii.js';
import {renderPlain} from '../../brand/render-plain.js';
import {renderSvg} from '../../brand/render-svg.js';
import {errorMessage, exitCodes} from '../core/errors.js';

/** Colour only for a terminal that can show it and a person who has not opted out (no-color.org: any non-empty NO_COLOR). */
function colourDepth(stdout: NodeJS.WriteStream, env: NodeJS.ProcessEnv): ColourDepth | null {
	if (!stdout.isTTY || env.NO_COLOR || env.TERM === 'dumb') return null;
	return env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit' ? 'truecolor' : '256';
}

/**
 * `i --runtime logo [--plain] [--ascii] [--svg]`: the mark on stdout. Colour
 * by default on a terminal, half blocks without colour otherwise or with
 * `--plain`, ASCII only with `--ascii` (which wins over `--plain`), an SVG document with `--svg`.
 */
export async function runCommand(args: string[]): Promise<number> {
	let values: {plain?: boolean; ascii?: boolean; svg?: boolean};
	try {
		({values} = parseArgs({args, options: {plain: {type: 'boolean'}, ascii: {type: 'boolean'}, svg: {type: 'boolean'}}, strict: true, allowPositionals: false}));
		// A vector file and a terminal drawing are different outputs; asking for both is a mistake worth naming.
		if (values.svg && (values.plain || values.ascii)) throw new Error('--svg cannot be combined with --plain or --ascii');
	} catch (error) {
		process.stderr.write(`i: --runtime logo: ${errorMessage(error)}\n`);
		return exitCodes.usage;
	}

	const depth = colourDepth(process.stdout, process.env);
	const text = values.svg ? renderSvg() : values.ascii ? renderAscii() : values.plain || depth === null ? renderPlain() : renderAnsi(depth);
	process.stdout.write(text);
	return exitCodes.ok;
}
