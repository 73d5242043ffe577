import {renderSystemPrompt} from '../source/core/history/system-prompt.js';
import {readConfigFile} from '../source/core/fs/read-config-file.js';

/** A prompt file holds 1–32000 characters (Unicode code points). */
const MAX_PROMPT_CHARACTERS = 32_000;
/** No UTF-8 character takes more than 4 bytes: a bigger file is over the limit without decoding it. */
const maxPromptBytes = MAX_PROMPT_CHARACTERS * 4;

/**
 * Reads a prompt file (strict UTF-8, 1–32000 characters) and fills in
 * `{{workspace}}`. Errors name the file and the rule.
 */
export async function readPromptFile(path: string, workspace: string | undefined): Promise<string> {
	const bytes = await readConfigFile(path, {label: `prompt file ${path}`, maxBytes: maxPromptBytes, tooBig: `more than ${MAX_PROMPT_CHARACTERS} characters can take`});
	if (bytes === undefined) throw new Error(`prompt file ${path} does not exist`);
	let text: string;
	try {
		text = new TextDecoder('utf-8', {fatal: true}).decode(bytes);
	} catch {
		throw new Error(`prompt file ${path} is not valid UTF-8`);
	}

	const characters = [...text].length;
	if (characters === 0 || characters > MAX_PROMPT_CHARACTERS) {
		throw new Error(`prompt file ${path} has ${characters} characters; a prompt must have 1 to ${MAX_PROMPT_CHARACTERS}`);
	}

	if (text.includes('{{workspace}}') && workspace === undefined) {
		throw new Error(`prompt file ${path} uses {{workspace}}, but the request carries no "workspace"`);
	}

	return workspace === undefined ? text : renderSystemPrompt(workspace, text);
}
