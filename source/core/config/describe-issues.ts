import type * as z from 'zod/mini';

/** The first few issues, each naming its field: `unknown field "x"`, `missing field "y"`, `key "k" in "r": …`, `field "z": …`. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], input: unknown): string {
	return issues
		.slice(0, 5)
		.map(issue => {
			if (issue.code === 'unrecognized_keys') {
				const where = issue.path.length > 0 ? ` in "${issue.path.join('.')}"` : '';
				return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map(key => `"${key}"`).join(', ')}${where}`;
			}

			if (issue.code === 'invalid_key') {
				const where = issue.path.length > 1 ? ` in "${issue.path.slice(0, -1).join('.')}"` : '';
				return `key "${String(issue.path.at(-1))}"${where}: ${issue.issues[0]?.message ?? issue.message}`;
			}

			const field = issue.path.length > 0 ? issue.path.join('.') : '(top level)';
			if (issue.path.length > 0 && valueAt(input, issue.path) === undefined) return `missing field "${field}"`;
			return `field "${field}": ${issue.message}`;
		})
		.join('; ');
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
	let value = input;
	for (const key of path) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as Record<PropertyKey, unknown>)[key];
	}

	return value;
}
