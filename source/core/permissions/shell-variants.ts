import {splitShellCommand, type ShellDialect} from './shell-commands.js';

/** Commands that run the command in their arguments: a deny rule judges what they run too. */
export const WRAPPERS: ReadonlySet<string> = new Set(['builtin', 'command', 'env', 'exec', 'nice', 'nohup', 'sudo', 'time', 'timeout', 'xargs']);
/** Words that only lead into a command (keywords, `!`): skipped like wrappers. */
const LEADING_WORDS: ReadonlySet<string> = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', '{']);
export const ASSIGNMENT = /^[A-Za-z_]\w*=/;
/** What separates commands to a reader that understands nothing: every operator, quote and expansion start. */
const LOOSE_SEPARATORS = /\$\(|\$\{|[;&|()`{}<>\n\r]/;

/**
 * The commands a deny or ask rule judges in a command line: each simple
 * command as written and as it runs without its leading assignments,
 * keywords and wrappers (`FOO=1 sudo -u me rm x` is judged as `rm x` too).
 * A line the splitter does not understand is cut at every operator,
 * quote and expansion instead, so `echo $(rm x)` still shows `rm x`: more
 * candidates, never fewer. A guard against mistakes, not a sandbox: a
 * script or `sh -c` still runs what it likes.
 */
export function judgedCommands(line: string, dialect: ShellDialect): string[][] {
	const split = splitShellCommand(line, dialect);
	const commands = split.commands ?? looseCommands(line);
	return commands.flatMap(words => withoutLeadingWords(words));
}

function looseCommands(line: string): string[][] {
	return line
		.split(LOOSE_SEPARATORS)
		.map(piece =>
			piece
				.replaceAll(/["'\\$]/g, '')
				.split(/\s+/)
				.filter(word => word !== ''),
		)
		.filter(words => words.length > 0);
}

/** The words as written, then each shorter form after a leading assignment, keyword, wrapper, or a wrapper's option and its value. */
function withoutLeadingWords(words: string[]): string[][] {
	const forms = [words];
	let afterWrapper = false;
	let afterOption = false;
	for (let at = 0; at < words.length - 1; at++) {
		const word = words[at]!;
		const option = afterWrapper && word.startsWith('-');
		// An option's value is skipped once: `sudo -u me rm` runs `rm`.
		const value = afterOption && !option;
		if (!(ASSIGNMENT.test(word) || LEADING_WORDS.has(word) || WRAPPERS.has(word) || option || value)) break;
		afterWrapper ||= WRAPPERS.has(word);
		afterOption = option;
		forms.push(words.slice(at + 1));
	}

	return forms;
}
