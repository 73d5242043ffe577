/**
 * Shapes of secrets memory refuses to store (spec/platform.md §9: no secret is stored). Each
 * names what it found, never the value. A pattern finds a known key format
 * anywhere; the "assigned" check finds a long, random-looking token right
 * after a word such as password, secret or token, which is how a secret
 * without a known format usually appears in notes.
 */
const shapes: ReadonlyArray<{kind: string; pattern: RegExp}> = [
	{kind: 'a PEM private key (-----BEGIN … PRIVATE KEY-----)', pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----/},
	{kind: 'an Anthropic API key (sk-ant-…)', pattern: /(?<![A-Za-z0-9])sk-ant-[A-Za-z0-9_-]{20,}/},
	{kind: 'an OpenAI-style API key (sk-…)', pattern: /(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{20,}/},
	{kind: 'an AWS access key ID (AKIA…)', pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])/},
	{kind: 'a GitHub token (ghp_…, github_pat_…)', pattern: /(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/},
	{kind: 'a Slack token (xox…-)', pattern: /(?<![A-Za-z0-9])xox[abprs]-[A-Za-z0-9-]{10,}/},
	{kind: 'a Google API key (AIza…)', pattern: /(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}/},
	{kind: 'a JSON Web Token (eyJ….….…)', pattern: /(?<![A-Za-z0-9])eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/},
];

/** A secret-naming word (also inside `client_secret`, `DB_PASSWORD`), then an optional `:`, `=`, `=>` or "is", an optional quote, and the candidate value. */
const assigned = /(?<![A-Za-z])(?:password|passphrase|passwd|pwd|secret|token|api[_ -]?key|access[_ -]?key|auth[_ -]?key|credentials?)[\w-]*["']?\s*(?:[:=]|=>|\bis\b)?\s*["'`]?([^\s"'`,;]{16,})/gi;

/** What kind of secret `text` appears to hold, or undefined. */
export function findSecret(text: string): string | undefined {
	for (const {kind, pattern} of shapes) if (pattern.test(text)) return kind;
	for (const match of text.matchAll(assigned)) {
		if (looksRandom(match[1]!)) return 'a long random-looking value after a word such as password, secret or token';
	}

	return undefined;
}

/**
 * Random rather than a word or an identifier: upper case, lower case and
 * digits mixed (or 32+ hex digits with both letters and digits), and at
 * least 3 bits of entropy per character. `tiktoken_cl100k_base` or
 * `/usr/local/share/tokens` are not; `Zx81kPq0LmR3tYv7` is.
 */
function looksRandom(value: string): boolean {
	const hex = /^[0-9a-f]{32,}$/i.test(value) && /[0-9]/.test(value) && /[a-f]/i.test(value);
	const mixed = /[A-Z]/.test(value) && /[a-z]/.test(value) && /[0-9]/.test(value) && !value.includes('/');
	return (hex || mixed) && entropy(value) >= 3;
}

/** Shannon entropy in bits per character. */
function entropy(value: string): number {
	const counts = new Map<string, number>();
	for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
	let bits = 0;
	for (const count of counts.values()) {
		const p = count / value.length;
		bits -= p * Math.log2(p);
	}

	return bits;
}
