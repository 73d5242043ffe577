/** Values frozen all the way down by freezeDeep: safe to know by identity. */
const frozen = new WeakSet<object>();

/**
 * Freezes `value` and everything in it, and remembers it as deeply frozen:
 * the session's messages are, so whatever holds one (a worker frame's
 * bases, a cached JSON text) can trust it never changes. A change in place
 * then throws (ES modules are strict) instead of passing unseen.
 */
export function freezeDeep<T>(value: T): T {
	if (typeof value !== 'object' || value === null || frozen.has(value)) return value;
	for (const inner of Object.values(value)) freezeDeep(inner);
	Object.freeze(value);
	frozen.add(value);
	return value;
}

/** Whether `value` went through freezeDeep (a primitive never changes either). */
export function isDeepFrozen(value: unknown): boolean {
	return typeof value !== 'object' || value === null || frozen.has(value);
}
