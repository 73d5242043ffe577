import type {AnyFlag, AnyFlags} from 'meow';
import {UsageError} from '../core/errors.js';
import type {UnclaimedFlag} from '../core/extensions/cli-flags.js';
import {nearestName} from '../core/nearest-name.js';

/** Appended to every error about how the command line was written. */
export const HELP_HINT = 'see i --help';

export interface TokenRules {
	flags: AnyFlags;
	/** Boolean flags (camel-case keys) whose `--flag=TEXT` form stands for `--flag` and the input word TEXT. */
	inputFlags?: readonly string[];
	/** A long flag the table does not know is kept in `unclaimed` for the extensions (registerFlag), not an error. */
	deferUnknown?: boolean;
	/** Flags (camel-case keys) whose values are secrets (`--api-key`): no error repeats them. */
	secretFlags?: readonly string[];
}

export interface Tokens {
	/**
	 * The same command line spelled so yargs-parser (inside meow) reads it one
	 * way only: each flag as `--long-name=VALUE`, `--long-name` or
	 * `--no-long-name`, then `--` and the input words.
	 */
	argv: string[];
	input: string[];
	/** With `deferUnknown`: the long flags the table does not know, in order. */
	unclaimed: UnclaimedFlag[];
}

interface Known {
	key: string;
	flag: AnyFlag;
	/** `--no-NAME` of a boolean. */
	negated: boolean;
}

/**
 * The strict pass in front of meow. meow, left to itself, prints "Unknown
 * flag" and exits the process on an unknown flag, reads `--config` at the end
 * as an empty string and `--max-steps` at the end as no flag at all, takes
 * the word after a boolean when it is `true` or `false` (`i -p false` would
 * lose its prompt), turns `--print=TEXT` into `false` and accepts camel-case
 * spellings (`--maxSteps`). Here every token is checked against the flag
 * table and each of those is an error naming the flag.
 */
export function readTokens(argv: readonly string[], rules: TokenRules): Tokens {
	const table = lookup(rules.flags);
	const seen = new Map<string, string>();
	const canonical: string[] = [];
	const input: string[] = [];
	const unclaimed: UnclaimedFlag[] = [];
	const inputFlags = new Set(rules.inputFlags ?? []);
	const secretFlags = new Set(rules.secretFlags ?? []);

	const record = (known: Known, spelling: string, value: string | undefined): void => {
		const name = kebab(known.key);
		const shown = value === undefined ? spelling : `${spelling} ${secretFlags.has(known.key) ? '(value hidden)' : value}`;
		const earlier = seen.get(known.key);
		if (earlier !== undefined && !known.flag.isMultiple) throw new UsageError(`--${name} is given twice (${earlier}, ${shown}); give it once; ${HELP_HINT}`);
		seen.set(known.key, shown);
		canonical.push(value === undefined ? `--${known.negated ? 'no-' : ''}${name}` : `--${name}=${value}`);
	};

	/** The value of a flag that takes one: after `=`, attached to a short flag, or the next token. */
	const takeValue = (known: Known, spelling: string, attached: string | undefined, index: number): {value: string; used: number} => {
		const next = argv[index + 1];
		const taken = attached ?? (next === undefined || next === '--' || isFlag(next) ? undefined : next);
		if (taken === undefined || taken === '') throw new UsageError(`${spelling} needs a value; ${HELP_HINT}`);
		if (known.flag.type === 'number' && !/^-?\d+(\.\d+)?$/.test(taken)) throw new UsageError(`${spelling} needs a number (got "${taken}"); ${HELP_HINT}`);
		return {value: taken, used: attached === undefined ? 1 : 0};
	};

	for (let index = 0; index < argv.length; index++) {
		const arg = argv[index]!;
		if (arg === '--') {
			input.push(...argv.slice(index + 1));
			break;
		}

		if (!isFlag(arg)) {
			input.push(arg);
			continue;
		}

		if (arg.startsWith('--')) {
			const equals = arg.indexOf('=');
			const spelling = equals === -1 ? arg : arg.slice(0, equals);
			const attached = equals === -1 ? undefined : arg.slice(equals + 1);
			const known = table.long.get(spelling.slice(2));
			if (!known) {
				const error = unknownFlag(spelling, table);
				if (!rules.deferUnknown || error.misused) throw error;
				const next = argv[index + 1];
				const name = spelling.slice(2);
				const negated = name.startsWith('no-');
				// The word after it goes to the input as any word does; a string flag of an extension takes it back as its value.
				const nextInput = attached === undefined && next !== undefined && next !== '--' && !isFlag(next) ? input.length : undefined;
				unclaimed.push({spelling, name: negated ? name.slice(3) : name, negated, attached, nextInput});
				continue;
			}

			if (known.flag.type === 'boolean') {
				if (attached !== undefined && !(inputFlags.has(known.key) && !known.negated)) throw new UsageError(`${spelling} takes no value (got ${arg}); ${HELP_HINT}`);
				record(known, spelling, undefined);
				if (attached !== undefined) input.push(attached);
			} else {
				const {value, used} = takeValue(known, spelling, attached, index);
				record(known, spelling, value);
				index += used;
			}

			continue;
		}

		// A cluster of short flags, as getopt reads it: `-pC DIR`, `-CDIR`, `-C=DIR`.
		for (let at = 1; at < arg.length; at++) {
			const spelling = `-${arg[at]}`;
			const known = table.short.get(arg[at]!);
			if (!known) throw unknownShortFlag(arg, at, table);
			if (known.flag.type === 'boolean') {
				record(known, spelling, undefined);
				continue;
			}

			const rest = arg.slice(at + 1).replace(/^=/, '');
			const {value, used} = takeValue(known, spelling, rest === '' ? undefined : rest, index);
			record(known, spelling, value);
			index += used;
			break;
		}
	}

	return {argv: [...canonical, '--', ...input], input, unclaimed};
}

/** A token that names a flag; `-` alone and negative numbers are words, as meow reads them. */
function isFlag(arg: string): boolean {
	return arg.length > 1 && arg.startsWith('-') && !/^-\d+(\.\d+)?$/.test(arg);
}

function kebab(key: string): string {
	return key.replace(/[A-Z]/g, letter => `-${letter.toLowerCase()}`);
}

function lookup(flags: AnyFlags): {long: Map<string, Known>; short: Map<string, Known>} {
	const long = new Map<string, Known>();
	const short = new Map<string, Known>();
	for (const [key, flag] of Object.entries(flags)) {
		for (const name of [kebab(key), ...(flag.aliases ?? [])]) {
			long.set(name, {key, flag, negated: false});
			if (flag.type === 'boolean') long.set(`no-${name}`, {key, flag, negated: true});
		}

		if (flag.shortFlag !== undefined) short.set(flag.shortFlag, {key, flag, negated: false});
	}

	return {long, short};
}

type Table = ReturnType<typeof lookup>;

/** `unknown flag --jsn (did you mean --json?)`; `misused` when it is the --no- form of a built-in flag that takes a value (never an extension's). */
function unknownFlag(spelling: string, table: Table): UsageError & {misused?: boolean} {
	const negated = /^--no-(.+)$/.exec(spelling)?.[1];
	const valued = negated === undefined ? undefined : table.long.get(negated);
	if (valued !== undefined && valued.flag.type !== 'boolean') {
		return Object.assign(new UsageError(`unknown flag ${spelling} (--${negated} takes a value; only a switch has a --no- form); ${HELP_HINT}`), {misused: true});
	}

	const name = nearestName(spelling.slice(2), [...table.long.keys()]);
	return usage(spelling, name === undefined ? undefined : `--${name}`);
}

/** The usage error an unclaimed flag is when no extension can claim it (`--no-extensions`, `--help`): as if it had not been deferred. */
export function unknownFlagError(spelling: string, flags: AnyFlags): UsageError {
	return unknownFlag(spelling, lookup(flags));
}

/** Every long name and alias of the table, as typed after `--`: the names no extension may take. */
export function longFlagNames(flags: AnyFlags): string[] {
	return [...lookup(flags).long.keys()].filter(name => !name.startsWith('no-'));
}

/** Letter `at` of the cluster `arg` is no short flag: a one-dash word may mean a long flag (`-json`), one letter its other case (`-P`). */
function unknownShortFlag(arg: string, at: number, table: Table): UsageError {
	const word = arg.slice(1).split('=')[0]!;
	const name = word.length > 1 ? nearestName(word, [...table.long.keys()]) : undefined;
	if (name !== undefined) return usage(arg, `--${name}`);
	const typed = arg[at]!;
	const letter = [...table.short.keys()].find(letter => letter.toLowerCase() === typed.toLowerCase());
	return usage(at === 1 && arg.length === 2 ? arg : `-${typed} (in ${arg})`, letter === undefined ? undefined : `-${letter}`);
}

function usage(flag: string, suggestion: string | undefined): UsageError {
	return new UsageError(`unknown flag ${flag}${suggestion === undefined ? '' : ` (did you mean ${suggestion}?)`}; ${HELP_HINT}`);
}
