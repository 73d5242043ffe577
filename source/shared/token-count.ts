/**
 * A token count as the catalogue shows it, one way everywhere (`1M`, `400k`,
 * `32k`, `512`): in thousands, except a count that is a whole number of
 * 1024s and not of 1000s, read in those (32768 is `32k`, 131072 `128k`, as
 * their makers say them); at most one decimal, and only below 10.
 */
export function formatTokenCount(value: number): string {
	if (value < 1000) return String(value);
	const base = value % 1000 !== 0 && value % 1024 === 0 ? 1024 : 1000;
	const thousands = value / base;
	const rounded = roundShown(thousands);
	return rounded < 1000 ? `${rounded}k` : `${roundShown(thousands / base)}M`;
}

/** Whole above 10, one decimal below (1.5k, 2.5M), none when it is .0. */
function roundShown(value: number): number {
	return value >= 10 ? Math.round(value) : Math.round(value * 10) / 10;
}
