/** A value extension code threw, in one line: its message, or what it was. */
export function describeThrown(error: unknown): string {
	if (error instanceof Error) return error.message.split('\n')[0] || error.name;
	if (typeof error === 'string') return error;
	return JSON.stringify(error) ?? String(error);
}
