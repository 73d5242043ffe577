import type {ChildResult} from '../child-request.js';
import type {Session} from '../session/session-store.js';
import {ChildOutput, type ChildDelta} from './child-output.js';

export type ChildStatus = 'running' | 'done' | 'failed';

export interface ChildPoll {
	childId: string;
	sessionId: string;
	status: ChildStatus;
	deltas: ChildDelta[];
	/** The deltas or the report were cut (child-output.ts). */
	truncated: boolean;
	turns: number;
	/** Once it ended. */
	result?: ChildResult;
	/** Why it failed. */
	error?: string;
}

/** One child task: its handle, state and output. */
export class ChildTask {
	readonly id: string;
	readonly owner: string;
	readonly role: string;
	readonly sessionId: string;
	readonly sessionPath: string;
	readonly output = new ChildOutput();
	readonly controller = new AbortController();
	status: ChildStatus = 'running';
	result: ChildResult | undefined;
	error: string | undefined;
	turns = 0;
	activity = 'starting';
	/** Resolves once the child really ended and its session is closed: only then is its slot free. */
	ended: Promise<void> = Promise.resolve();
	/** Its run has not returned yet (a cancelled child past its grace included). */
	live = true;
	/** Why it was cancelled, said in its failure. */
	cancelReason: string | undefined;
	#settled: ((result: ChildResult) => void)[] = [];

	constructor(fields: {id: string; owner: string; role: string; session: Session}) {
		this.id = fields.id;
		this.owner = fields.owner;
		this.role = fields.role;
		this.sessionId = fields.session.id;
		this.sessionPath = fields.session.path;
	}

	/** The child's result once it ended (or its cancel grace ran out). */
	async settled(): Promise<ChildResult> {
		if (this.result) return this.result;
		return new Promise(resolve => this.#settled.push(resolve));
	}

	/** The first ending wins: a child that ends after its grace ran out keeps the failure it was given. */
	settle(result: ChildResult, error?: string): boolean {
		if (this.result) return false;
		this.result = result;
		this.status = result.status;
		this.error = error;
		for (const resolve of this.#settled.splice(0)) resolve(result);
		return true;
	}
}
