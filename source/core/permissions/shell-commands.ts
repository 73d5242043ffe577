/** How a command line is read: by /bin/sh, or by cmd.exe on Windows (run-command.ts runs `shell` with the platform's). */
export type ShellDialect = 'sh' | 'cmd';

export function platformDialect(): ShellDialect {
	return process.platform === 'win32' ? 'cmd' : 'sh';
}

/** An unquoted `*` in a rule's pattern, kept apart from a quoted one (a command line holding NUL is never understood). */
export const WILDCARD = '\u0000';

/** A command line as its simple commands, or why it was not understood. */
export type ShellSplit = {commands: string[][]; opaque: null} | {commands: null; opaque: string};

/** Words that start a compound command: its parts are not simple commands a prefix rule can judge. */
const RESERVED_WORDS: Readonly<Record<ShellDialect, ReadonlySet<string>>> = {
	sh: new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'case', 'esac', 'while', 'until', 'for', 'select', 'function', 'coproc', '!', '[[', ']]', '{', '}']),
	cmd: new Set(['if', 'for', 'else']),
};

/** cmd.exe's escapes, variables and groups, and sh's characters it reads differently: never understood. */
const CMD_OPAQUE = '^%!()<>;,';

/** What `$` starts: nothing a rule can judge before the shell expands it. */
const EXPANSION = '`$` (a variable or `$(…)`)';

/** Where a redirection's target ends. */
const TARGET_END = /[\s;&|<>()]/;

class Opaque extends Error {}

/** The words of the command being read and the commands read so far. */
class Words {
	readonly commands: string[][] = [];
	#words: string[] = [];
	#word: string | null = null;
	#quoted = false;
	readonly #reserved: ReadonlySet<string>;

	constructor(reserved: ReadonlySet<string>) {
		this.#reserved = reserved;
	}

	get inWord(): boolean {
		return this.#word !== null;
	}

	append(text: string, quoted: boolean): void {
		this.#word = (this.#word ?? '') + text;
		this.#quoted ||= quoted;
	}

	endWord(): void {
		if (this.#word !== null) this.#words.push(this.#word);
		this.#word = null;
		this.#quoted = false;
	}

	/** Before `>`: an unquoted number just before it names the stream, and is no word. */
	endBeforeRedirection(): void {
		if (this.#word !== null && !this.#quoted && /^\d+$/.test(this.#word)) {
			this.#word = null;
			return;
		}

		this.endWord();
	}

	endCommand(): void {
		this.endWord();
		const first = this.#words[0];
		if (first !== undefined && this.#reserved.has(first)) throw new Opaque(`a compound command (\`${first}\`)`);
		if (this.#words.length > 0) this.commands.push(this.#words);
		this.#words = [];
	}
}

/**
 * Splits a command line into its simple commands (`a && b`, `a; b`,
 * `a | b`, `a & b`, one per line), quoting removed. Only what is fully
 * understood is split: `$` in any form, backticks, parentheses, braces,
 * here-documents, compound commands, control characters and redirections to
 * or from files make the line opaque, so no prefix rule can allow it (a
 * deny rule still judges it, shell-variants.ts). Redirections that only
 * move streams (`2>&1`) or discard them (`>/dev/null`) are dropped. With
 * `pattern`, an unquoted `*` becomes WILDCARD.
 */
export function splitShellCommand(line: string, dialect: ShellDialect, options: {pattern?: boolean} = {}): ShellSplit {
	const words = new Words(RESERVED_WORDS[dialect]);
	try {
		if (dialect === 'sh') readSh(line, words, options.pattern === true);
		else readCmd(line, words, options.pattern === true);
		words.endCommand();
	} catch (error) {
		if (error instanceof Opaque) return {commands: null, opaque: error.message};
		throw error;
	}

	return {commands: words.commands, opaque: null};
}

function isControl(char: string): boolean {
	return (char < ' ' && char !== '\t' && char !== '\n') || char === '\u007f';
}

function readSh(line: string, words: Words, pattern: boolean): void {
	let at = 0;
	while (at < line.length) {
		const char = line[at]!;
		if (isControl(char)) throw new Opaque('a control character');
		switch (char) {
			case ' ':
			case '\t': {
				words.endWord();
				at++;
				break;
			}

			case '\n':
			case ';': {
				words.endCommand();
				at++;
				break;
			}

			case '#': {
				if (words.inWord) {
					words.append(char, false);
					at++;
				} else {
					// A comment, to the end of the line.
					const end = line.indexOf('\n', at);
					at = end === -1 ? line.length : end;
				}

				break;
			}

			case "'": {
				const end = line.indexOf("'", at + 1);
				if (end === -1) throw new Opaque('an unclosed quote');
				words.append(line.slice(at + 1, end), true);
				at = end + 1;
				break;
			}

			case '"': {
				at = readDoubleQuoted(line, at, words);
				break;
			}

			case '\\': {
				const next = line[at + 1];
				if (next === undefined) throw new Opaque('a backslash at the end');
				if (isControl(next)) throw new Opaque('a control character');
				// A backslash before a newline joins the lines.
				if (next !== '\n') words.append(next, true);
				at += 2;
				break;
			}

			case '$': {
				throw new Opaque(EXPANSION);
			}

			case '`': {
				throw new Opaque('backticks');
			}

			case '(':
			case ')': {
				throw new Opaque('parentheses (a subshell)');
			}

			case '{':
			case '}': {
				throw new Opaque('braces');
			}

			case '|': {
				if (line[at + 1] === '&') throw new Opaque('`|&`');
				words.endCommand();
				at += line[at + 1] === '|' ? 2 : 1;
				break;
			}

			case '&': {
				if (line[at + 1] === '>') {
					words.endWord();
					at = readRedirection(line, at + 1, '&');
				} else {
					words.endCommand();
					at += line[at + 1] === '&' ? 2 : 1;
				}

				break;
			}

			case '<':
			case '>': {
				words.endBeforeRedirection();
				at = readRedirection(line, at, '');
				break;
			}

			default: {
				words.append(pattern && char === '*' ? WILDCARD : char, false);
				at++;
			}
		}
	}
}

/** Inside double quotes only `\` and the end quote are read; `$` and backticks would expand, so they are not understood. */
function readDoubleQuoted(line: string, start: number, words: Words): number {
	let text = '';
	let at = start + 1;
	for (;;) {
		const char = line[at];
		if (char === undefined) throw new Opaque('an unclosed quote');
		if (char === '"') {
			words.append(text, true);
			return at + 1;
		}

		if (char === '$') throw new Opaque(EXPANSION);
		if (char === '`') throw new Opaque('backticks');
		if (isControl(char)) throw new Opaque('a control character');
		const next = line[at + 1];
		if (char === '\\' && next !== undefined && '$`"\\\n'.includes(next)) {
			if (next !== '\n') text += next;
			at += 2;
			continue;
		}

		text += char;
		at++;
	}
}

/** `>`, `>>`, `>|`, `<`, `>&N`, `<&N`, `&>`, `&>>` at `start` (after any `&`): only streams moved or discarded are understood. */
function readRedirection(line: string, start: number, prefix: string): number {
	let at = start;
	const direction = line[at]!;
	let operator = prefix + direction;
	at++;
	const next = line[at];
	if (direction === '<' && next === '<') throw new Opaque('a here-document (`<<`)');
	if (direction === '<' && next === '>') throw new Opaque('a `<>` redirection');
	if (next === '&' || (direction === '>' && (next === '>' || next === '|'))) {
		operator += next;
		at++;
	}

	if (line[at] === '(') throw new Opaque('process substitution (`<(…)`, `>(…)`)');
	while (line[at] === ' ' || line[at] === '\t') at++;
	let end = at;
	while (end < line.length && !TARGET_END.test(line[end]!)) end++;
	const target = line.slice(at, end);
	const moves = operator.endsWith('&');
	if (moves ? /^(?:\d+|-)$/.test(target) : target === '/dev/null') return end;
	throw new Opaque(target === '' ? 'a redirection without a target' : `a redirection to or from a file (\`${operator}${target}\`)`);
}

/** cmd.exe: `"` quotes without escapes; `&`, `&&`, `|`, `||` and newlines separate; its other syntax is not understood. */
function readCmd(line: string, words: Words, pattern: boolean): void {
	let at = 0;
	while (at < line.length) {
		const char = line[at]!;
		if (isControl(char)) throw new Opaque('a control character');
		if (CMD_OPAQUE.includes(char)) throw new Opaque(`\`${char}\`, which cmd.exe reads specially`);
		if (char === ' ' || char === '\t') {
			words.endWord();
			at++;
		} else if (char === '\n') {
			words.endCommand();
			at++;
		} else if (char === '&' || char === '|') {
			words.endCommand();
			at += line[at + 1] === char ? 2 : 1;
		} else if (char === '"') {
			const end = line.indexOf('"', at + 1);
			if (end === -1) throw new Opaque('an unclosed quote');
			words.append(line.slice(at + 1, end), true);
			at = end + 1;
		} else {
			words.append(pattern && char === '*' ? WILDCARD : char, false);
			at++;
		}
	}
}
