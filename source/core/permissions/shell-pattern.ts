import {splitShellCommand, WILDCARD, type ShellDialect} from './shell-commands.js';

/** A `shell(…)` rule's pattern: one simple command's words, each matched whole; `*` matches any characters within a word. */
export interface ShellPattern {
	words: ReadonlyArray<RegExp>;
	/** The last word ends in an unquoted `*`: any further words follow (`npm test*`, `git log *`). */
	open: boolean;
	/** The last word is `*` alone: it may also stand for no word at all (`npm test *` matches `npm test`). */
	lastOptional: boolean;
}

/** Reads a pattern as the splitter reads a command, so quoting means the same in both; throws an Error saying why it can never match. */
export function compileShellPattern(text: string, dialect: ShellDialect): ShellPattern {
	const split = splitShellCommand(text, dialect, {pattern: true});
	if (split.commands === null) throw new Error(`it holds ${split.opaque}, and a command with that is never allowed by a pattern (a deny or ask rule without a pattern still covers it)`);
	if (split.commands.length === 0) throw new Error('the pattern is empty');
	if (split.commands.length > 1) throw new Error(`it names ${split.commands.length} commands; a pattern matches one simple command, so write one rule for each`);
	const words = split.commands[0]!;
	const last = words.at(-1)!;
	return {words: words.map(wordPattern), open: last.endsWith(WILDCARD), lastOptional: last === WILDCARD};
}

/** Whether one simple command's words match the pattern. */
export function matchShellPattern(pattern: ShellPattern, words: readonly string[]): boolean {
	const count = pattern.words.length;
	const fixed = pattern.lastOptional && words.length === count - 1 ? count - 1 : count;
	if (words.length < fixed || (!pattern.open && words.length !== count)) return false;
	for (let at = 0; at < fixed; at++) if (!pattern.words[at]!.test(words[at]!)) return false;
	return true;
}

function wordPattern(word: string): RegExp {
	const parts = word.split(WILDCARD).map(part => part.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&'));
	return new RegExp(`^${parts.join('[\\s\\S]*')}$`);
}
