import * as z from 'zod/mini';
import '../../source/core/zod-english.js';
import {FrontMatterError, parseSkillFile} from '../skills/front-matter.js';
import {MAX_DESCRIPTION_CHARS} from '../skills/limits.js';
import {readPromptFile} from '../serve/prompt-file.js';

/** What a template's optional front matter may say; the body is what the prompt becomes. */
const fieldsSchema = z.strictObject({
	description: z.optional(z.string().check(z.refine(value => [...value].length <= MAX_DESCRIPTION_CHARS, {message: `must have at most ${MAX_DESCRIPTION_CHARS} characters`}))),
	'argument-hint': z.optional(z.string()),
});

/**
 * A prompt template's text: a prompt file (strict UTF-8, 1–32000
 * characters, `{{workspace}}` filled in; spec/platform.md §9), without its front
 * matter when it starts with one (`---`, `description:` and
 * `argument-hint:`, `---`, read as a SKILL.md's is). Errors name the file.
 */
export async function readTemplate(file: string, workspace: string | undefined): Promise<string> {
	const text = await readPromptFile(file, workspace);
	if (!/^\uFEFF?---[ \t]*\r?\n/.test(text)) return text;
	let parsed;
	try {
		parsed = await parseSkillFile(text, `prompt template ${file}`);
	} catch (error) {
		if (error instanceof FrontMatterError) throw new Error(error.message);
		throw error;
	}

	const checked = fieldsSchema.safeParse(parsed.fields);
	if (!checked.success) {
		const issue = checked.error.issues[0]!;
		const key = issue.code === 'unrecognized_keys' ? issue.keys[0]! : String(issue.path[0]);
		const problem = issue.code === 'unrecognized_keys' ? `unknown key "${key}"; allowed: description, argument-hint` : `"${key}" ${issue.message}`;
		throw new Error(`prompt template ${file} line ${parsed.lines[key] ?? 1}: ${problem}`);
	}

	if (parsed.body.trim() === '') throw new Error(`prompt template ${file} has nothing after its front matter; the text after the closing "---" is what the prompt becomes`);
	return parsed.body;
}
