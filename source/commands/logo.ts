import type {AnyFlags} from 'meow';
import {renderAnsi, type ColourDepth} from '../../brand/render-ansi.js';
import {renderAscii} from '../../brand/render-ascii.js';
import {renderPlain} from '../../brand/render-plain.js';
import {renderSvg} from '../../brand/render-svg.js';
import {parseCommandLine} from '../command-line/parse-command-line.js';
import {errorMessage, exitCodes, UsageError} from '../core/errors.js';

const logoFlags = {
	plain: {type: 'boolean', default: false},
	ascii: {type: 'boolean', default: false},
	svg: {type: 'boolean', default: false},
} satisfies AnyFlags;

/** Colour only for a terminal that can show it and a person who has not opted out (no-color.org: any non-empty NO_COLOR). */
function colourDepth(stdout: NodeJS.WriteStream, env: NodeJS.ProcessEnv): ColourDepth | null {
	if (!stdout.isTTY || env.NO_COLOR || env.TERM === 'dumb') return null;
	return env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit' ? 'truecolor' : '256';
}

/** `i --runtime logo …`. */
export async function runCommand(args: string[]): Promise<number> {
	return runLogo(args, '--runtime logo');
}

/**
 * `i logo [--plain] [--ascii] [--svg]` and `i --runtime logo …` (named
 * `command` in errors): the mark on stdout. Colour by default on a
 * terminal, half blocks without colour otherwise or with `--plain`, ASCII
 * only with `--ascii` (which wins over `--plain`), an SVG document with `--svg`.
 */
export async function runLogo(args: string[], command: string): Promise<number> {
	let flags: {plain: boolean; ascii: boolean; svg: boolean};
	try {
		const parsed = parseCommandLine(args, {flags: logoFlags});
		flags = parsed.flags;
		// A vector file and a terminal drawing are different outputs; asking for both is a mistake worth naming.
		if (flags.svg && (flags.plain || flags.ascii)) throw new UsageError('--svg cannot be combined with --plain or --ascii');
	} catch (error) {
		if (!(error instanceof UsageError)) throw error;
		process.stderr.write(`i: ${command}: ${errorMessage(error)}\n`);
		return exitCodes.usage;
	}

	const depth = colourDepth(process.stdout, process.env);
	const text = flags.svg ? renderSvg() : flags.ascii ? renderAscii() : flags.plain || depth === null ? renderPlain() : renderAnsi(depth);
	process.stdout.write(text);
	return exitCodes.ok;
}
