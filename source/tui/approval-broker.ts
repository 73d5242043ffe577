import type {AskPerson, ApprovalRequest} from '../core/agent/approval-gate.js';
import type {ApprovalAsk} from '../core/tools/types.js';

export type ApprovalChoice = {kind: 'once'} | {kind: 'always'} | {kind: 'deny'; reason: string};

export interface PendingApproval {
	request: ApprovalRequest & {ask: ApprovalAsk};
	answer(choice: ApprovalChoice): void;
}

/**
 * How the chat screen answers the core's approval asks: one question at a
 * time shown by the approval widget, plus the tools the person allowed for
 * the rest of the session, which are not asked about again.
 */
export class ApprovalBroker {
	#pending: PendingApproval | null = null;
	readonly #allowed = new Set<string>();
	readonly #listeners = new Set<() => void>();

	getSnapshot = (): PendingApproval | null => this.#pending;

	subscribe = (listener: () => void): (() => void) => {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	};

	/** Tools allowed for the rest of the session. */
	get allowed(): ReadonlySet<string> {
		return this.#allowed;
	}

	readonly askPerson: AskPerson = async request => {
		if (this.#allowed.has(request.name)) return {decision: 'allow', by: 'user', reason: 'allowed for this session'};
		const choice = await new Promise<ApprovalChoice>(resolve => {
			this.#set({request, answer: resolve});
		});
		this.#set(null);
		if (choice.kind === 'deny') return {decision: 'deny', by: 'user', reason: choice.reason.trim() === '' ? 'the person said no' : `the person said no: ${choice.reason.trim()}`};
		if (choice.kind === 'always') this.#allowed.add(request.name);
		return {decision: 'allow', by: 'user', reason: null};
	};

	/** A turn that ends (an interrupt) while a question is open answers it with a denial. */
	cancel(): void {
		this.#pending?.answer({kind: 'deny', reason: 'the turn was interrupted'});
	}

	#set(pending: PendingApproval | null): void {
		this.#pending = pending;
		for (const listener of this.#listeners) listener();
	}
}
