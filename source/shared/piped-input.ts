/**
 * The marks around input piped beside `i -p TEXT` (`git diff | i -p "Review
 * this"`): print mode writes them, and the chat screen reads them back to
 * show a resumed prompt as typed, with a line for what was piped.
 */
const OPEN = '\n\n<piped-input>\n';
const CLOSE = '</piped-input>';

/** The prompt with the piped input after it, marked so the model can tell the two apart. */
export function withPipedInput(prompt: string, piped: string | null): string {
	return piped === null ? prompt : `${prompt}${OPEN}${piped.endsWith('\n') ? piped : `${piped}\n`}${CLOSE}`;
}

/** A prompt `withPipedInput` marked, split back into what was typed and what was piped; null for any other text. */
export function pipedInputOf(text: string): {prompt: string; piped: string} | null {
	if (!text.endsWith(`\n${CLOSE}`)) return null;
	const at = text.indexOf(OPEN);
	if (at === -1) return null;
	return {prompt: text.slice(0, at), piped: text.slice(at + OPEN.length, text.length - CLOSE.length)};
}
