/**
 * The indentation a hand-edited JSON file uses, read from its first indented
 * line, for JSON.stringify when `i` writes the file back (settings, the
 * model config, models.json): a person's tabs or spaces stay theirs.
 * `fallback` for a file with no indented line.
 */
export function jsonIndentation(text: string | undefined, fallback: string | number): string | number {
	return /\n([ \t]+)\S/.exec(text ?? '')?.[1] ?? fallback;
}
