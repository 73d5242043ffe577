/**
 * Characters the results of one batch may take, split over its calls. The
 * budget worker will replace this fixed share with one drawn from the
 * context window; until then a batch gets a share a model handles well.
 */
export const BATCH_OUTPUT_CHARS = 64_000;
export const MIN_CALL_OUTPUT_CHARS = 8000;

export function toolOutputLimit(pendingCalls: number): number {
	return Math.max(MIN_CALL_OUTPUT_CHARS, Math.floor(BATCH_OUTPUT_CHARS / Math.max(1, pendingCalls)));
}
