/** Exit codes, as docs/command-line.md lists them. */
export const exitCodes = {
	ok: 0,
	turnFailed: 1,
	usage: 2,
	vetoed: 3,
	interrupted: 130,
} as const;

/** A usage or configuration error: the person must change a flag or a file (exit 2). */
export class UsageError extends Error {
	override name = 'UsageError';
}

/** No key resolves for the provider the run needs (the variable unset, nothing in auth.json): a UsageError the chat screen answers with its setup. */
export class MissingKeyError extends UsageError {
	constructor(
		message: string,
		readonly provider: string,
	) {
		super(message);
	}
}

/** A plugin refused the start: a start-phase hook (session_load, system_prompt) failed (exit 3). */
export class StartVetoError extends Error {
	override name = 'StartVetoError';
}

/** A failure of the turn's infrastructure: model, HTTP, tool runner (exit 1). */
export class TurnError extends Error {
	override name = 'TurnError';
}

export function errorMessage(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
