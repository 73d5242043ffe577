/**
 * Cut text longer than `limit` to its head and tail around a visible marker.
 * The marker counts toward the limit, so the result is at most `limit`
 * characters unless the limit is too small to hold the marker itself.
 */
export function truncateOutput(text: string, limit: number): string {
	if (text.length <= limit) {
		return text;
	}

	// The marker reports how many characters it replaces, which depends on its own length: settle it.
	let keep = 0;
	let marker = markerFor(text.length);
	for (let pass = 0; pass < 3; pass++) {
		keep = Math.max(0, limit - marker.length);
		marker = markerFor(text.length - keep);
	}

	if (keep === 0) {
		return marker.trim();
	}

	let headEnd = Math.ceil(keep / 2);
	let tailStart = text.length - (keep - headEnd);
	// Never split a surrogate pair: a lone half renders as garbage.
	if (isHighSurrogate(text.charCodeAt(headEnd - 1))) {
		headEnd--;
	}

	if (isLowSurrogate(text.charCodeAt(tailStart))) {
		tailStart++;
	}

	return text.slice(0, headEnd) + markerFor(tailStart - headEnd) + text.slice(tailStart);
}

function markerFor(removed: number): string {
	return `\n[… ${removed} characters truncated …]\n`;
}

function isHighSurrogate(code: number): boolean {
	return code >= 0xd8_00 && code <= 0xdb_ff;
}

function isLowSurrogate(code: number): boolean {
	return code >= 0xdc_00 && code <= 0xdf_ff;
}
