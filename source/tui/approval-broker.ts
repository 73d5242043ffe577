import type {AskPerson, ApprovalRequest} from '../core/agent/approval-gate.js';
import type {ApprovalAsk} from '../core/tools/types.js';
import type {PromptObserver, UiPrompt} from './ui-prompt-events.js';
import {OpenQuestion} from './open-question.js';

/** The person's answer; `cancelled`: the question went away unanswered (an interrupt), a denial for the model. */
export type ApprovalChoice = {kind: 'once'} | {kind: 'always'} | {kind: 'deny'; reason: string} | {kind: 'cancelled'};

export interface PendingApproval {
	request: ApprovalRequest & {ask: ApprovalAsk};
	answer(choice: ApprovalChoice): void;
}

/**
 * How the chat screen answers the core's approval asks: one question at a
 * time shown by the approval widget, plus the tools the person allowed for
 * the rest of the session, which are not asked about again.
 */
export class ApprovalBroker extends OpenQuestion<PendingApproval> {
	readonly #allowed = new Set<string>();
	readonly #observer: PromptObserver | undefined;
	/** Settles when the question on screen is answered: child agents may ask while another question is open, and wait their turn. */
	#queue: Promise<unknown> = Promise.resolve();

	/** `observer` hears each question that is shown (not the tools allowed for the session, which ask nothing). */
	constructor(observer?: PromptObserver) {
		super();
		this.#observer = observer;
	}

	/** Tools allowed for the rest of the session. */
	get allowed(): ReadonlySet<string> {
		return this.#allowed;
	}

	readonly askPerson: AskPerson = async (request, signal) => {
		const turn = this.#queue.then(async () => this.#ask(request, signal));
		this.#queue = turn.catch(() => {});
		return turn;
	};

	async #ask(request: Parameters<AskPerson>[0], signal: AbortSignal | undefined): ReturnType<AskPerson> {
		// Asked while the question before it was open: allowed for the session meanwhile, or withdrawn.
		if (this.#allowed.has(request.name)) return {decision: 'allow', by: 'user', reason: 'allowed for this session'};
		if (signal?.aborted) return {decision: 'deny', by: 'user', reason: 'the question was withdrawn: the call that asked was cancelled'};
		const prompt: UiPrompt = {id: request.id, kind: 'approval', tool: request.name, title: request.ask.title};
		this.#observer?.started(prompt);
		let withdraw: (() => void) | undefined;
		const choice = await new Promise<ApprovalChoice>(resolve => {
			this.show({request, answer: resolve});
			withdraw = () => resolve({kind: 'cancelled'});
			signal?.addEventListener('abort', withdraw, {once: true});
		});
		if (withdraw) signal?.removeEventListener('abort', withdraw);
		this.show(null);
		this.#observer?.ended(prompt, choice.kind);
		if (choice.kind === 'cancelled')
			return {decision: 'deny', by: 'user', reason: signal?.aborted ? 'the question was withdrawn: the call that asked was cancelled' : 'the person said no: the turn was interrupted'};
		if (choice.kind === 'deny') return {decision: 'deny', by: 'user', reason: choice.reason.trim() === '' ? 'the person said no' : `the person said no: ${choice.reason.trim()}`};
		if (choice.kind === 'always') this.#allowed.add(request.name);
		return {decision: 'allow', by: 'user', reason: null};
	}

	/** A turn that ends (an interrupt) while a question is open answers it with a denial. */
	cancel(): void {
		this.getSnapshot()?.answer({kind: 'cancelled'});
	}
}
