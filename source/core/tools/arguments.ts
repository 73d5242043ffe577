import type * as z from 'zod/mini';
import '../zod-english.js';
import {ToolInputError} from './types.js';

type Issue = z.core.$ZodIssue;

/**
 * Validate a tool's parsed arguments. A failure becomes a `ToolInputError`
 * whose message names each field and the problem in words a model can act
 * on: `read: files[0].offset must be ≥ 1`.
 */
export function parseArguments<Schema extends z.ZodMiniType>(tool: string, schema: Schema, input: unknown): z.output<Schema> {
	const result = schema.safeParse(input);
	if (result.success) {
		return result.data;
	}

	throw new ToolInputError(`${tool}: ${describeIssues(result.error.issues, input, 'arguments')}`);
}

/** Zod issues as one sentence per problem; `root` names the value itself (`arguments`, `images`). */
export function describeIssues(issues: readonly Issue[], input: unknown, root: string): string {
	return issues.map(issue => describeIssue(issue, input, root)).join('; ');
}

function describeIssue(issue: Issue, input: unknown, root: string): string {
	const field = fieldName(issue.path, root);
	const value = valueAt(input, issue.path);
	switch (issue.code) {
		case 'invalid_type': {
			if (value === undefined) {
				return `${field} is required`;
			}

			return `${field} must be ${typeWords(issue.expected)} (got ${describeValue(value)})`;
		}

		case 'too_small': {
			return `${field} ${tooSmallWords(issue, value)}`;
		}

		case 'too_big': {
			return `${field} ${tooBigWords(issue, value)}`;
		}

		case 'unrecognized_keys': {
			const keys = issue.keys.map(key => JSON.stringify(key)).join(', ');
			const noun = issue.keys.length === 1 ? 'field' : 'fields';
			return issue.path.length === 0 ? `unknown ${noun} ${keys}` : `${field} has unknown ${noun} ${keys}`;
		}

		case 'invalid_value': {
			const values = issue.values.map(item => JSON.stringify(item));
			return values.length === 1 ? `${field} must be ${values[0]}` : `${field} must be one of ${values.join(', ')}`;
		}

		default: {
			return `${field}: ${issue.message}`;
		}
	}
}

/** `files[0].offset`; the root's own name when the path is empty or starts with an index. */
function fieldName(path: readonly PropertyKey[], root: string): string {
	let name = '';
	for (const key of path) {
		name += typeof key === 'number' ? `[${key}]` : `${name === '' ? '' : '.'}${String(key)}`;
	}

	return name === '' || name.startsWith('[') ? `${root}${name}` : name;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
	let value = input;
	for (const key of path) {
		if (value === null || typeof value !== 'object') {
			return undefined;
		}

		value = (value as Record<PropertyKey, unknown>)[key];
	}

	return value;
}

const typeNames: Record<string, string> = {
	string: 'a string',
	number: 'a number',
	int: 'an integer',
	boolean: 'true or false',
	array: 'an array',
	object: 'an object',
	null: 'null',
};

function typeWords(expected: string): string {
	return typeNames[expected] ?? expected;
}

function describeValue(value: unknown): string {
	if (value === null) {
		return 'null';
	}

	if (Array.isArray(value)) {
		return 'an array';
	}

	if (typeof value === 'number') {
		return String(value);
	}

	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function tooSmallWords(issue: Extract<Issue, {code: 'too_small'}>, value: unknown): string {
	const minimum = Number(issue.minimum);
	switch (issue.origin) {
		case 'string': {
			return minimum === 1 ? 'must not be empty' : `must be at least ${minimum} characters long`;
		}

		case 'array': {
			return `must list at least ${minimum} ${minimum === 1 ? 'item' : 'items'}${countSuffix(value)}`;
		}

		default: {
			return `must be ${issue.inclusive === false ? '>' : '≥'} ${minimum}${numberSuffix(value)}`;
		}
	}
}

function tooBigWords(issue: Extract<Issue, {code: 'too_big'}>, value: unknown): string {
	const maximum = Number(issue.maximum);
	switch (issue.origin) {
		case 'string': {
			return `must be at most ${maximum} characters long`;
		}

		case 'array': {
			return `must list at most ${maximum} ${maximum === 1 ? 'item' : 'items'}${countSuffix(value)}`;
		}

		default: {
			return `must be ${issue.inclusive === false ? '<' : '≤'} ${maximum}${numberSuffix(value)}`;
		}
	}
}

function countSuffix(value: unknown): string {
	return Array.isArray(value) ? ` (got ${value.length})` : '';
}

function numberSuffix(value: unknown): string {
	return typeof value === 'number' ? ` (got ${value})` : '';
}
