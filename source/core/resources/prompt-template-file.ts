import {statSync} from 'node:fs';
import {join} from 'node:path';

/** Characters of a template's name, each of [A-Za-z0-9_-]: the rule of skill and tool names. */
export const MAX_TEMPLATE_NAME_CHARS = 64;

/** `/name` at the start of a prompt, then its arguments (after whitespace, newlines included). */
const command = new RegExp(`^/([A-Za-z0-9_-]{1,${MAX_TEMPLATE_NAME_CHARS}})(?:\\s+([\\s\\S]*))?$`);

/** The template a prompt invokes (`/review src/a.ts`), or null when it does not start with a template-shaped `/name`. */
export function parseTemplateCommand(text: string): {name: string; args: string} | null {
	const match = command.exec(text.trim());
	return match ? {name: match[1]!, args: (match[2] ?? '').trim()} : null;
}

/**
 * The file of template `name`: `<folder>/<name>.md` in the first folder
 * that has it as a regular file (spec/extensions.md §8: the earlier folder wins a
 * name), or undefined. Looked up when invoked, never listed, so a folder
 * of any size costs one stat per folder.
 */
export function findPromptTemplate(folders: readonly string[], name: string): string | undefined {
	for (const folder of folders) {
		const file = join(folder, `${name}.md`);
		let stats;
		try {
			stats = statSync(file);
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			// A folder that is missing (or is a file) has no templates; one that cannot be read is a problem to name.
			if (code === 'ENOENT' || code === 'ENOTDIR') continue;
			throw new Error(`prompt template ${file} cannot be read (${code ?? (error as Error).message})`);
		}

		if (stats.isFile()) return file;
	}

	return undefined;
}
