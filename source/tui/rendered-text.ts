/**
 * What an extension's renderer, transformer or command answered, as text: a
 * string, `{text}` or `{lines}` (spec/extensions.md §5: data in, text or
 * lines out). Undefined for nothing (no answer, `{}`); null for an answer of
 * any other shape, a promise included where a synchronous answer is needed.
 */
export function readRenderedText(answer: unknown): string | undefined | null {
	if (answer === undefined || answer === null) return undefined;
	if (typeof answer === 'string') return answer;
	if (typeof answer !== 'object' || typeof (answer as {then?: unknown}).then === 'function') return null;
	const {text, lines} = answer as {text?: unknown; lines?: unknown};
	if (typeof text === 'string') return text;
	if (Array.isArray(lines) && lines.every(line => typeof line === 'string')) return lines.join('\n');
	return text === undefined && lines === undefined && Object.keys(answer).length === 0 ? undefined : null;
}
