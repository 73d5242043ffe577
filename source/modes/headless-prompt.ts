import type {EmitEvent} from '../core/events.js';
import type {UserContent} from '../core/messages.js';
import {promptContent} from '../core/mentions/attach-mentions.js';
import {parseBangPrompt} from '../core/user-bash/bang-prompt.js';

/**
 * A prompt of `-p` or line mode as the turn gets it: `@path` mentions
 * attached (attach-mentions.ts, as in the chat screen), each file not
 * attached a warning. A prompt starting with `!` is refused: `!` commands
 * are the chat screen's (a script runs its commands itself); `\!` at the
 * start sends the `!` as text. Null, after an error event, when the prompt
 * is not sent.
 */
export async function headlessPrompt(prompt: string, workspace: string, emit: EmitEvent, where: string): Promise<UserContent | null> {
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

	return prepared.content;
}
