/** A turn that failed (the model, a hook, a session write…) or ran out of steps; the session keeps its last complete step. */
export class TurnFailedError extends Error {
	override name = 'TurnFailedError';
	/** `error`, or `max_steps` when the turn made its last allowed model request without an answer. */
	readonly reason: 'error' | 'max_steps';
	/** What failed, as the `error` event's `kind` says: `http`, `network`, `stream` (the model), `hook`, `compaction`, `turn`… */
	readonly kind: string;
	/** Model requests the turn made. */
	readonly steps: number;

	constructor(message: string, details: {reason: TurnFailedError['reason']; kind: string; steps: number; cause?: unknown}) {
		super(message, details.cause === undefined ? undefined : {cause: details.cause});
		this.reason = details.reason;
		this.kind = details.kind;
		this.steps = details.steps;
	}
}

export {StartVetoError, UsageError} from '../errors.js';
