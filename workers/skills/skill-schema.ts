import * as z from 'zod/mini';
import '../../source/core/zod-english.js';
import {MAX_DESCRIPTION_CHARS, MAX_NAME_CHARS} from './limits.js';

const namePattern = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_NAME_CHARS}}$`);

/**
 * The front matter fields `i` uses, each with its type and limits checked
 * (spec/platform.md §9). Every other key (Claude Code's `allowed-tools`,
 * `metadata`, `license`, `version`…) is accepted and ignored, whatever it
 * holds, so a skill written for another agent is read as it is.
 */
export const skillFieldsSchema = z.looseObject({
	name: z.string().check(z.refine(value => namePattern.test(value), {message: `must be 1–${MAX_NAME_CHARS} characters, each an ASCII letter, digit, "-" or "_"`})),
	description: z.string().check(
		z.refine(value => value.trim() !== '', {message: 'must not be empty'}),
		z.refine(value => [...value].length <= MAX_DESCRIPTION_CHARS, {message: `must have at most ${MAX_DESCRIPTION_CHARS} characters`}),
	),
});

export type SkillFields = z.infer<typeof skillFieldsSchema>;

/** The validated fields, or an error message naming each bad field and its line. */
export function checkSkillFields(fields: Record<string, unknown>, lines: Record<string, number>): {fields: SkillFields} | {error: string} {
	const parsed = skillFieldsSchema.safeParse(fields);
	if (parsed.success) return {fields: parsed.data};
	const messages = parsed.error.issues.map(issue => {
		const key = String(issue.path[0] ?? '');
		if (!Object.hasOwn(fields, key)) return `missing required key "${key}"`;
		return `"${key}"${lines[key] === undefined ? '' : ` (line ${lines[key]})`} ${issue.code === 'invalid_type' ? `must be text, got ${typeName(fields[key])}` : issue.message}`;
	});
	return {error: messages.join('; ')};
}

function typeName(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'a map';
	return `${typeof value === 'number' ? 'a number' : typeof value === 'boolean' ? 'a boolean' : typeof value} (${JSON.stringify(value)})`;
}
