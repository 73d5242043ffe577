/**
 * What a prompt starting with `!` asks for (docs/chat-screen.md): `!cmd`
 * runs cmd and adds it and its output to the context of the next turn,
 * `!!cmd` runs it without adding anything; `\!…` at the start is a message
 * that begins with `!` (the backslash dropped). Anything else is a message.
 */
export type BangPrompt = {kind: 'command'; command: string; excludeFromContext: boolean} | {kind: 'message'; text: string};

export function parseBangPrompt(prompt: string): BangPrompt {
	const start = prompt.trimStart();
	if (start.startsWith('\\!')) return {kind: 'message', text: prompt.replace('\\!', '!')};
	if (!start.startsWith('!')) return {kind: 'message', text: prompt};
	const excludeFromContext = start.startsWith('!!');
	return {kind: 'command', command: start.slice(excludeFromContext ? 2 : 1).trim(), excludeFromContext};
}
