import meow, {type AnyFlags, type Result} from 'meow';
import {packageManifest} from '../version.js';
import {UsageError} from '../core/errors.js';
import type {UnclaimedFlag} from '../core/extensions/cli-flags.js';
import {HELP_HINT, readTokens} from './read-tokens.js';

export interface CommandLineSpec<Flags extends AnyFlags> {
	/** meow's flag table: camel-case keys, `--kebab-case` on the command line. */
	flags: Flags;
	/** Boolean flags whose `--flag=TEXT` form stands for `--flag` and the input word TEXT (`--print=TEXT`). */
	inputFlags?: ReadonlyArray<keyof Flags & string>;
	/** Whether words that are no flags are the caller's to read; otherwise the first one is a usage error. */
	takesInput?: boolean;
	/** The help text meow keeps (as `help` of the result). */
	help?: string;
	/** Unknown long flags are kept in `unclaimed` for the extensions, not refused (read-tokens.ts). */
	deferUnknown?: boolean;
	/** Flags whose values no error may repeat (`--api-key`). */
	secretFlags?: ReadonlyArray<keyof Flags & string>;
}

export interface CommandLine<Flags extends AnyFlags> {
	flags: Result<Flags>['flags'];
	/** The words that are no flags, in order, untouched. */
	input: string[];
	/** The help text as meow formats it. */
	help: string;
	/** With `deferUnknown`: the long flags no built-in flag is. */
	unclaimed: UnclaimedFlag[];
}

/**
 * Parses `argv` with meow after a strict pass over its tokens
 * (read-tokens.ts), which throws a UsageError naming any unknown flag,
 * missing or bad value, or single-valued flag given twice. meow itself is
 * kept from acting on the process: it never prints help or the version and
 * never exits (autoHelp, autoVersion off; unknown flags are stopped before
 * it), reads our package.json (given as `pkg`, so it looks for none) and
 * leaves the process title alone.
 */
export function parseCommandLine<Flags extends AnyFlags>(argv: readonly string[], spec: CommandLineSpec<Flags>): CommandLine<Flags> {
	const tokens = readTokens(argv, {flags: spec.flags, inputFlags: spec.inputFlags, deferUnknown: spec.deferUnknown, secretFlags: spec.secretFlags});
	if (!spec.takesInput && tokens.input.length > 0) throw new UsageError(`unexpected argument "${tokens.input[0]}"; ${HELP_HINT}`);
	const result = keepingProcessTitle(() =>
		meow(spec.help ?? '', {
			importMeta: import.meta,
			argv: tokens.argv,
			flags: spec.flags,
			pkg: packageManifest(),
			description: false,
			autoHelp: false,
			autoVersion: false,
			// Unknown flags never reach meow (readTokens refuses them); with this off meow would print its own message and exit.
			allowUnknownFlags: true,
		}),
	);
	return {flags: result.flags, input: result.input, help: result.help, unclaimed: tokens.unclaimed};
}

/**
 * meow sets `process.title` to the program's name; on Linux that overwrites
 * the command line `ps` and `pgrep -f` show (`node …/i.js -p …` would become
 * `i`). The title is held still while meow runs. Node's title is a native
 * property that cannot be put back once redefined, so afterwards it is a
 * plain one: setting it no longer renames the process (nothing in i does).
 */
function keepingProcessTitle<T>(run: () => T): T {
	const descriptor = Object.getOwnPropertyDescriptor(process, 'title');
	if (!descriptor?.configurable) return run();
	const title = process.title;
	Object.defineProperty(process, 'title', {configurable: true, enumerable: descriptor.enumerable, get: () => title, set() {}});
	try {
		return run();
	} finally {
		Object.defineProperty(process, 'title', {configurable: true, enumerable: descriptor.enumerable, writable: true, value: title});
	}
}
