import {join} from 'node:path';
import {readPromptText} from '../fs/read-prompt-file.js';

/** The workspace's own system prompt files (spec/extensions.md §8). */
export const SYSTEM_PROMPT_FILE = join('.i', 'SYSTEM.md');
export const APPEND_SYSTEM_PROMPT_FILE = join('.i', 'APPEND_SYSTEM.md');

export interface ProjectSystemPrompt {
	/** `.i/SYSTEM.md`: the system prompt instead of the one chosen before it. */
	replace: string | undefined;
	/** `.i/APPEND_SYSTEM.md`: added after it. */
	append: string | undefined;
}

/**
 * Reads both files as prompt files (1–32000 characters each, strict UTF-8,
 * `{{workspace}}` filled in). A missing one is simply not there; one that
 * cannot be used is a UsageError naming it.
 */
export async function readProjectSystemPrompt(workspace: string): Promise<ProjectSystemPrompt> {
	const [replace, append] = await Promise.all([readPromptText(join(workspace, SYSTEM_PROMPT_FILE), workspace), readPromptText(join(workspace, APPEND_SYSTEM_PROMPT_FILE), workspace)]);
	return {replace, append};
}

/** `base` (the embedded default, or what the `system_prompt` hook chose) with the project's files applied: replaced, then extended after a blank line. */
export function applyProjectSystemPrompt(base: string, project: ProjectSystemPrompt): string {
	const prompt = project.replace ?? base;
	return project.append === undefined ? prompt : `${prompt.trimEnd()}\n\n${project.append}`;
}
