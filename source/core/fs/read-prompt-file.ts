import {UsageError} from '../errors.js';
import {renderSystemPrompt} from '../history/system-prompt.js';
import {readConfigFile} from './read-config-file.js';

/** spec/platform.md §9: a prompt file holds 1–32000 characters (Unicode code points). */
export const MAX_PROMPT_CHARACTERS = 32_000;
/** No UTF-8 character takes more than 4 bytes: a bigger file is over the limit without decoding it. */
const maxPromptBytes = MAX_PROMPT_CHARACTERS * 4;

/**
 * A prompt file's text (strict UTF-8, 1–32000 characters) with
 * `{{workspace}}` filled in, or undefined when the file does not exist.
 * Anything else (not a regular file, unreadable, too big, not UTF-8, empty,
 * `{{workspace}}` with no workspace to fill in) is a UsageError naming the
 * file and the rule.
 */
export async function readPromptText(path: string, workspace: string | undefined): Promise<string | undefined> {
	const bytes = await readConfigFile(path, {label: `prompt file ${path}`, maxBytes: maxPromptBytes, tooBig: `more than ${MAX_PROMPT_CHARACTERS} characters can take`});
	if (bytes === undefined) return undefined;
	let text: string;
	try {
		text = new TextDecoder('utf-8', {fatal: true}).decode(bytes);
	} catch {
		throw new UsageError(`prompt file ${path} is not valid UTF-8`);
	}

	const characters = [...text].length;
	if (characters === 0 || characters > MAX_PROMPT_CHARACTERS) {
		throw new UsageError(`prompt file ${path} has ${characters} characters; a prompt must have 1 to ${MAX_PROMPT_CHARACTERS}`);
	}

	if (text.includes('{{workspace}}') && workspace === undefined) {
		throw new UsageError(`prompt file ${path} uses {{workspace}}, but the request carries no "workspace"`);
	}

	return workspace === undefined ? text : renderSystemPrompt(workspace, text);
}
