import type {EmitEvent} from '../core/events.js';
import type {McpHandle} from '../core/mcp/mcp-handle.js';
import type {UserContent} from '../core/messages.js';
import {promptContent} from '../core/mentions/attach-mentions.js';
import {parseBangPrompt} from '../core/user-bash/bang-prompt.js';

/**
 * A prompt of `-p` or line mode as the turn gets it: `@path` mentions
 * attached (attach-mentions.ts, as in the chat screen), each file not
 * attached a warning. A prompt starting with `!` is refused: `!` commands
 * are the chat screen's (a script runs its commands itself); `\!` at the
 * start sends the `!` as text. `@server:uri` resources are read from their
 * MCP servers into the typed text (resource-mentions.ts, loaded only for a
 * prompt that may name one; a server still starting is waited for: this
 * prompt needs it). Null, after an error event, when the
 * prompt is not sent.
 */
export async function headlessPrompt(prompt: string, workspace: string, emit: EmitEvent, where: string, servers?: {mcp: McpHandle; signal: AbortSignal}): Promise<UserContent | null> {
	const bang = parseBangPrompt(prompt);
	if (bang.kind === 'command') {
		emit({type: 'error', message: `${where} does not run ! commands (the chat screen does); run the command yourself, or start the prompt with \\! to send it to the model as text`, kind: 'usage'});
		return null;
	}

	const prepared = await promptContent(bang.text, workspace);
	for (const notice of prepared.notices) emit({type: 'warning', message: notice});
	if (!prepared.ok) {
		emit({type: 'error', message: prepared.error, kind: 'usage'});
		return null;
	}

	if (!servers || !mayMentionResource(prepared.text)) return prepared.content;
	const {contentWithResources} = await import('../core/mcp/resource-mentions.js');
	return contentWithResources(prepared.content, prepared.text, servers.mcp, servers.signal, message => emit({type: 'warning', message}));
}

/** Whether a message may name an `@server:uri` resource (resource-mentions.ts has the same test; this one costs no import). */
function mayMentionResource(text: string): boolean {
	return /(?:^|\s)@[A-Za-z0-9_-]+:\S/.test(text);
}
