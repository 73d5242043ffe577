import {readPromptText} from '../../source/core/fs/read-prompt-file.js';

/**
 * Reads a prompt file a config names (strict UTF-8, 1–32000 characters) and
 * fills in `{{workspace}}`; a missing one is an error too. Errors name the
 * file and the rule.
 */
export async function readPromptFile(path: string, workspace: string | undefined): Promise<string> {
	const text = await readPromptText(path, workspace);
	if (text === undefined) throw new Error(`prompt file ${path} does not exist`);
	return text;
}
