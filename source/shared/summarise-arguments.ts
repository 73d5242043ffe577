/** A summary is one short line: longer ones end in an ellipsis. */
const MAX_SUMMARY = 100;

/**
 * A tool call's arguments in one short line, the values rather than the JSON
 * punctuation: what the chat screen and line mode both show.
 */
export function summariseArguments(argumentsText: string): string {
	let flat: string;
	try {
		const value = JSON.parse(argumentsText) as unknown;
		flat = typeof value === 'object' && value !== null ? describeValue(value) : String(value);
	} catch {
		flat = argumentsText;
	}

	// JavaScript's \s and trim() count U+FEFF, which draws nothing: it is left for the marks (invisible-marks.ts), not made a space or cut.
	flat = flat.replaceAll(/[^\S\uFEFF]+/g, ' ').replaceAll(/^ | $/g, '');
	return flat.length > MAX_SUMMARY ? `${flat.slice(0, MAX_SUMMARY - 1)}…` : flat;
}

function describeValue(value: object): string {
	if (Array.isArray(value)) return value.map(item => (typeof item === 'object' && item !== null ? describeValue(item) : String(item))).join(', ');
	return Object.entries(value)
		.map(([key, item]) => `${key}: ${typeof item === 'object' && item !== null ? describeValue(item) : String(item)}`)
		.join(' ');
}
