/**
 * A template's placeholders filled from what followed `/name` (the
 * conventions prompt templates use elsewhere): `$1` … `$N` one argument
 * each (an argument is a word, or a "double" or 'single' quoted run),
 * `$@` and `$ARGUMENTS` all of them joined by spaces, `${@:N}` those from
 * the Nth on, `${@:N:L}` L of them from the Nth. A missing argument is
 * empty. One pass: text an argument brings in is never read as a
 * placeholder. A template with no placeholder gets the arguments after a
 * blank line, so nothing typed is silently dropped.
 */
export function fillTemplate(template: string, args: string): string {
	const words = splitArguments(args);
	let placeholders = 0;
	const filled = template.replace(/\$\{@:(\d+)(?::(\d+))?\}|\$ARGUMENTS|\$@|\$(\d+)/g, (_match, from?: string, count?: string, index?: string) => {
		placeholders++;
		if (index !== undefined) return words[Number(index) - 1] ?? '';
		if (from === undefined) return words.join(' ');
		const start = Math.max(Number(from) - 1, 0);
		return words.slice(start, count === undefined ? undefined : start + Number(count)).join(' ');
	});
	if (placeholders > 0 || args === '') return filled;
	return `${filled.trimEnd()}\n\n${args}`;
}

/** Words, or quoted runs (the quotes dropped); no escapes. */
export function splitArguments(args: string): string[] {
	return [...args.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map(match => match[1] ?? match[2] ?? match[3]!);
}
