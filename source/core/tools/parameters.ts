import * as z from 'zod/mini';

/**
 * A tool's `parameters` JSON Schema from its zod schema, as providers want it:
 * the input side (defaults make fields optional), without the `$schema` key,
 * and without the ±2^53 bounds zod adds to every integer.
 */
export function toParameters(schema: z.ZodMiniType): Record<string, unknown> {
	const {$schema: _dialect, ...rest} = z.toJSONSchema(schema, {io: 'input'}) as Record<string, unknown>;
	return withoutSafeIntegerBounds(rest) as Record<string, unknown>;
}

function withoutSafeIntegerBounds(node: unknown): unknown {
	if (Array.isArray(node)) {
		return node.map(item => withoutSafeIntegerBounds(item));
	}

	if (node === null || typeof node !== 'object') {
		return node;
	}

	const result: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(node)) {
		const implicitBound = (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) || (key === 'minimum' && value === Number.MIN_SAFE_INTEGER);
		if (!implicitBound) {
			result[key] = withoutSafeIntegerBounds(value);
		}
	}

	return result;
}
