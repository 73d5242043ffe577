import * as z from 'zod/mini';
import '../../source/core/zod-english.js';
import {MAX_DESCRIPTION_CHARS, MAX_NAME_CHARS} from './limits.js';
import type {FrontMatterValue} from './front-matter.js';

const namePattern = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_NAME_CHARS}}$`);

/**
 * The front matter fields a SKILL.md may have, each with its type checked.
 * `name` and `description` are required; the others are optional and
 * documented in docs/plugins.md. Any other key is refused, so a typo is named
 * rather than silently ignored.
 */
export const skillFieldsSchema = z.strictObject({
	name: z.string().check(z.refine(value => namePattern.test(value), {message: `must be 1–${MAX_NAME_CHARS} characters, each an ASCII letter, digit, "-" or "_"`})),
	description: z.string().check(
		z.refine(value => value.trim() !== '', {message: 'must not be empty'}),
		z.refine(value => [...value].length <= MAX_DESCRIPTION_CHARS, {message: `must have at most ${MAX_DESCRIPTION_CHARS} characters`}),
	),
	license: z.optional(z.string()),
	compatibility: z.optional(z.string()),
	/** Free key → text pairs (a one-level map of strings). */
	metadata: z.optional(z.record(z.string(), z.string())),
	/** Tools the skill expects, as a list or one space-separated string; informational only, it grants nothing. */
	'allowed-tools': z.optional(z.union([z.string(), z.array(z.string())])),
});

export type SkillFields = z.infer<typeof skillFieldsSchema>;

/** The validated fields, or an error message naming each bad field and its line. */
export function checkSkillFields(fields: Record<string, FrontMatterValue>, lines: Record<string, number>): {fields: SkillFields} | {error: string} {
	const parsed = skillFieldsSchema.safeParse(fields);
	if (parsed.success) return {fields: parsed.data};
	const messages = parsed.error.issues.slice(0, 5).map(issue => {
		if (issue.code === 'unrecognized_keys') {
			const where = issue.keys.map(key => `"${key}" (line ${lines[key]})`).join(', ');
			return `unknown key${issue.keys.length > 1 ? 's' : ''} ${where}; allowed: ${Object.keys(skillFieldsSchema.def.shape).join(', ')}`;
		}

		const key = String(issue.path[0] ?? '');
		if (!Object.hasOwn(fields, key)) return `missing required key "${key}"`;
		const field = issue.path.map(String).join('.');
		return `"${field}" (line ${lines[key]}) ${issue.code === 'invalid_type' || issue.code === 'invalid_union' ? `must be ${issue.path.length > 1 ? 'text' : describeExpected(key)}, got ${typeName(valueAt(fields, issue.path))}` : issue.message}`;
	});
	return {error: messages.join('; ')};
}

function describeExpected(key: string): string {
	if (key === 'metadata') return 'a map of text values';
	if (key === 'allowed-tools') return 'a list of text values or one text value';
	return 'text';
}

function valueAt(fields: Record<string, FrontMatterValue>, path: readonly PropertyKey[]): unknown {
	let value: unknown = fields;
	for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
	return value;
}

function typeName(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'a map';
	return `${typeof value === 'number' ? 'a number' : typeof value === 'boolean' ? 'a boolean' : typeof value} (${JSON.stringify(value)})`;
}
