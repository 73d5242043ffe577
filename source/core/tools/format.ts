/** `1 file`, `3 files`. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
	return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** The first line of `text` in at most `max` characters, ending in `…` when anything was cut. */
export function clipLine(text: string, max: number): string {
	const line = text.split('\n', 1)[0] ?? '';
	const cut = line.length < text.length;
	if (line.length > max || (cut && line.length >= max)) {
		return `${line.slice(0, max - 1)}…`;
	}

	return cut ? `${line}…` : line;
}

export function formatBytes(bytes: number): string {
	if (bytes < 1024) {
		return plural(bytes, 'byte');
	}

	const units = ['KiB', 'MiB', 'GiB'];
	let value = bytes / 1024;
	let unit = 0;
	while (value >= 1024 && unit < units.length - 1) {
		value /= 1024;
		unit++;
	}

	return `${Number(value.toFixed(1))} ${units[unit]}`;
}

/** Number of lines in a text, counting a last line without a newline. */
export function countLines(text: string): number {
	if (text.length === 0) {
		return 0;
	}

	let count = 0;
	for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
		count++;
	}

	return text.endsWith('\n') ? count : count + 1;
}

/**
 * Join lines while the text stays within `limit` characters; `omitted` says
 * how many lines did not fit, so the caller can say so.
 */
export function joinWithinLimit(lines: readonly string[], limit: number): {text: string; omitted: number} {
	let length = 0;
	let fitting = 0;
	for (const line of lines) {
		const next = length + line.length + (fitting > 0 ? 1 : 0);
		if (next > limit) {
			break;
		}

		length = next;
		fitting++;
	}

	return {text: lines.slice(0, fitting).join('\n'), omitted: lines.length - fitting};
}
