import {UsageError} from '../errors.js';
import {nearestName} from '../nearest-name.js';

/**
 * Flags an extension adds to the command line (`registerFlag`, read back
 * with `api.runtime.getCliFlag`). The command line is parsed before any
 * extension loads, so a flag the built-in table does not know is kept here
 * with the word after it instead of failing at once; each extension flag
 * claims its own as it is registered, and once every extension has loaded,
 * a flag nobody claimed is the usage error it would have been (exit 2,
 * before any model request), with the nearest flag of either kind.
 */

/** A long flag of the command line that no built-in flag knows, as it was typed. */
export interface UnclaimedFlag {
	/** `--name`, `--no-name` or `--name` of `--name=VALUE`. */
	spelling: string;
	/** Without the dashes and without `no-`. */
	name: string;
	negated: boolean;
	/** The value after `=`. */
	attached: string | undefined;
	/** Where in the input words the word right after the flag went, when it is no flag: its value, if the flag takes one. */
	nextInput: number | undefined;
}

/** The command line's part in this: what the parser left over, and the names that are taken. */
export interface CommandLineRest {
	flags: readonly UnclaimedFlag[];
	/** The words that are no flags, in order (the `-p` prompt's words). */
	input: readonly string[];
	/** Whether the run takes input words (`-p`); otherwise a word left over is an error. */
	takesInput: boolean;
	/** The built-in flags' long names and aliases, `i`'s own: never an extension's. */
	reserved: readonly string[];
}

export interface FlagSpec {
	type: 'boolean' | 'string';
	default?: boolean | string | undefined;
	description: string;
}

export type FlagValue = boolean | string | undefined;

/** spec/extensions.md §3: `--name` in kebab case; 1–64 characters like a tool name, lower case. */
export const MAX_FLAG_NAME_LENGTH = 64;
const flagNamePattern = /^[a-z][a-z0-9-]{0,63}$/;
/** A description is one line of `i extensions`. */
export const MAX_FLAG_DESCRIPTION_CHARS = 500;

export class ExtensionFlags {
	readonly #rest: CommandLineRest;
	/** Registered flags by name: whose, how, and the value this run gave it. */
	readonly #registered = new Map<string, {owner: string; spec: FlagSpec; value: FlagValue}>();
	/** Indexes into #rest.flags claimed by a registered flag. */
	readonly #claimedFlags = new Set<number>();
	/** Indexes into #rest.input taken as a flag's value. */
	readonly #takenInput = new Set<number>();
	/** Extension flags the command line gave wrongly, said by finish(). */
	readonly #problems: string[] = [];

	constructor(rest: CommandLineRest = {flags: [], input: [], takesInput: true, reserved: []}) {
		this.#rest = rest;
	}

	/** The same command line with nothing claimed: for a reload, whose extensions register their flags again. */
	fresh(): ExtensionFlags {
		return new ExtensionFlags(this.#rest);
	}

	/** Checks a `registerFlag` call and what this run's command line gives it, without claiming anything (the extension's `register` may still fail). Throws an Error naming the problem. */
	check(owner: string, name: unknown, spec: unknown, staged: ReadonlyMap<string, FlagSpec>): {name: string; spec: FlagSpec; value: FlagValue} {
		if (typeof name !== 'string' || !flagNamePattern.test(name)) {
			throw new Error(`registerFlag: the name must be 1–${MAX_FLAG_NAME_LENGTH} lower-case letters, digits or "-", starting with a letter, as in --name (got ${JSON.stringify(name)})`);
		}

		const where = `registerFlag --${name}`;
		if (name.startsWith('no-')) throw new Error(`${where}: --no-NAME is the off form of a switch; register NAME as a boolean instead`);
		if (this.#rest.reserved.includes(name)) throw new Error(`${where}: i has a flag of that name`);
		const earlier = this.#registered.get(name);
		if (earlier !== undefined) throw new Error(`${where}: extension ${earlier.owner} registered it first`);
		if (staged.has(name)) throw new Error(`${where}: registered twice by extension ${owner}`);
		const checked = checkSpec(where, spec);
		return {name, spec: checked, value: this.#valueOf(name, checked).value};
	}

	/** Records a flag of an extension whose `register` succeeded: its words of the command line are claimed. */
	commit(owner: string, name: string, spec: FlagSpec): void {
		const {value, flags, input, problem} = this.#valueOf(name, spec);
		for (const index of flags) this.#claimedFlags.add(index);
		for (const index of input) this.#takenInput.add(index);
		if (problem !== undefined) this.#problems.push(problem);
		this.#registered.set(name, {owner, spec, value});
	}

	/** The value of a registered flag in this run (its default when not given); undefined for a name no extension registered. */
	value(name: string): FlagValue {
		return this.#registered.get(name)?.value;
	}

	/** The input words no extension flag took as its value: the `-p` prompt. */
	input(): string[] {
		return this.#rest.input.filter((_word, index) => !this.#takenInput.has(index));
	}

	/** Whether the command line left anything for the extensions to claim. */
	get pending(): boolean {
		return this.#rest.flags.length > 0;
	}

	/** The first flag left for the extensions, as typed (`--name`). */
	get firstPending(): string | undefined {
		return this.#rest.flags[0]?.spelling;
	}

	/** After every extension loaded: a flag nobody claimed, or a word left over where none is taken, is a usage error. */
	finish(): void {
		if (this.#problems.length > 0) throw new UsageError(`${this.#problems[0]!}; see i extensions for the flags extensions add`);
		const unclaimed = this.#rest.flags.find((_flag, index) => !this.#claimedFlags.has(index));
		if (unclaimed !== undefined) {
			const names = [...this.#rest.reserved, ...this.#registered.keys()];
			const nearest = nearestName(unclaimed.name, names);
			throw new UsageError(`unknown flag ${unclaimed.spelling}${nearest === undefined ? '' : ` (did you mean --${nearest}?)`}; no built-in flag or loaded extension has it; see i --help and i extensions`);
		}

		const left = this.input();
		if (!this.#rest.takesInput && left.length > 0) throw new UsageError(`unexpected argument "${left[0]}"; to ask one question, use -p "${left.join(' ')}"`);
	}

	/**
	 * What the command line gives the flag `name`, and the words that say it.
	 * A command line that gives it wrongly is the person's mistake, not the
	 * extension's: `problem`, said by finish() as a usage error.
	 */
	#valueOf(name: string, spec: FlagSpec): {value: FlagValue; flags: number[]; input: number[]; problem?: string} {
		const given = this.#rest.flags.map((flag, index) => ({flag, index})).filter(({flag}) => flag.name === name);
		if (given.length === 0) return {value: spec.default, flags: [], input: []};
		const flags = given.map(({index}) => index);
		const wrong = (problem: string) => ({value: spec.default, flags, input: [], problem});
		if (given.length > 1) return wrong(`--${name} is given twice (${given.map(({flag}) => spelled(flag)).join(', ')}); give it once`);
		const {flag} = given[0]!;
		if (spec.type === 'boolean') {
			if (flag.attached !== undefined) return wrong(`${flag.spelling} takes no value (got ${spelled(flag)})`);
			return {value: !flag.negated, flags, input: []};
		}

		if (flag.negated) return wrong(`unknown flag ${flag.spelling} (--${name} takes a value; only a switch has a --no- form)`);
		if (flag.attached !== undefined) return flag.attached === '' ? wrong(`--${name} needs a value`) : {value: flag.attached, flags, input: []};
		if (flag.nextInput === undefined) return wrong(`--${name} needs a value`);
		return {value: this.#rest.input[flag.nextInput], flags, input: [flag.nextInput]};
	}
}

function spelled(flag: UnclaimedFlag): string {
	return flag.attached === undefined ? flag.spelling : `${flag.spelling}=${flag.attached}`;
}

function checkSpec(where: string, spec: unknown): FlagSpec {
	if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) throw new Error(`${where}: takes (name, {type: 'boolean' | 'string', default?, description})`);
	const {type, default: fallback, description} = spec as Record<string, unknown>;
	if (type !== 'boolean' && type !== 'string') throw new Error(`${where}: type must be "boolean" or "string" (got ${JSON.stringify(type)})`);
	if (fallback !== undefined && typeof fallback !== type) throw new Error(`${where}: default must be a ${type} (got ${JSON.stringify(fallback)})`);
	if (typeof description !== 'string' || description.trim() === '') throw new Error(`${where}: description must be a non-empty string`);
	if (description.length > MAX_FLAG_DESCRIPTION_CHARS) throw new Error(`${where}: description is over ${MAX_FLAG_DESCRIPTION_CHARS} characters`);
	return {type, description, ...(fallback === undefined ? {} : {default: fallback as boolean | string})};
}
