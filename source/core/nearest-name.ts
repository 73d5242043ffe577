/** How far a typo may be from a name and still be suggested: one edit per this many characters typed, at least one. */
const CHARACTERS_PER_EDIT = 3;
/** A shorter start of a name (`--max` for `--max-steps`) is only read as that name from this length on. */
const MIN_PREFIX_LENGTH = 3;

/**
 * The name `typed` most likely meant, for "did you mean …?": the closest by
 * edit distance (a swap of two neighbours is one edit), case ignored, else
 * the shortest name it begins. Undefined when nothing is close: a wrong
 * guess is worse than none.
 */
export function nearestName(typed: string, names: readonly string[]): string | undefined {
	const lower = typed.toLowerCase();
	const allowed = Math.max(1, Math.floor(lower.length / CHARACTERS_PER_EDIT));
	let best: string | undefined;
	let bestDistance = allowed + 1;
	for (const name of names) {
		const distance = editDistance(lower, name.toLowerCase());
		if (distance < bestDistance) {
			best = name;
			bestDistance = distance;
		}
	}

	if (best !== undefined || lower.length < MIN_PREFIX_LENGTH) return best;
	const longer = names.filter(name => name.toLowerCase().startsWith(lower));
	return longer.sort((a, b) => a.length - b.length)[0];
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of two neighbours. */
export function editDistance(a: string, b: string): number {
	const rows = Array.from({length: a.length + 1}, (_, i) => Array.from({length: b.length + 1}, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
	for (let i = 1; i <= a.length; i++) {
		for (let j = 1; j <= b.length; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			let distance = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance = Math.min(distance, rows[i - 2]![j - 2]! + 1);
			rows[i]![j] = distance;
		}
	}

	return rows[a.length]![b.length]!;
}
