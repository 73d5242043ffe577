import type {AskPerson, ApprovalRequest} from '../../core/agent/approval-gate.js';
import type {ApprovalAsk} from '../../core/tools/types.js';
import {shownExact} from '../shown-text.js';
import type {PromptObserver, UiPrompt} from '../ui-prompt-events.js';
import {OpenQuestion, QuestionLine} from './open-question.js';

/** The person's answer; `cancelled`: the question went away unanswered (an interrupt), a denial for the model. */
export type ApprovalChoice = {kind: 'once'} | {kind: 'always'} | {kind: 'remember'} | {kind: 'deny'; reason: string} | {kind: 'cancelled'};

export interface PendingApproval {
	request: ApprovalRequest & {ask: ApprovalAsk};
	/** The allow rule "always, for this project" would write (`remember`); null when none fits and the option is not offered. */
	rule: string | null;
	answer(choice: ApprovalChoice): void;
}

/** How "always, for this project" finds its rule and writes it (the agent's RunPermissions, and a notice of what was written). */
export interface RememberRules {
	ruleFor(request: ApprovalRequest): Promise<string | null>;
	/** Writes the allow rule to the project's `.i/settings.local.json` and says so; a failure is said, never thrown: the call was allowed. */
	remember(rule: string): Promise<void>;
}

const allowedForSession = {decision: 'allow', by: 'user', reason: 'allowed for this session'} as const;
const withdrawn = {decision: 'deny', by: 'user', reason: 'the question was withdrawn: the call that asked was cancelled'} as const;
const interrupted = {decision: 'deny', by: 'user', reason: 'the person said no: the turn was interrupted'} as const;

/**
 * How the chat screen answers the core's approval asks: one question at a
 * time shown by the approval widget, plus the tools the person allowed for
 * the rest of the session, which are not asked about again.
 */
export class ApprovalBroker extends OpenQuestion<PendingApproval> {
	readonly #allowed = new Set<string>();
	readonly #observer: PromptObserver | undefined;
	readonly #line: QuestionLine;
	/** Each ask not answered yet, waiting for the line or shown: an interrupt withdraws them all. */
	readonly #queued = new Set<AbortController>();
	#rules: RememberRules | undefined;

	/** `observer` hears each question that is shown (not the tools allowed for the session, which ask nothing); `line` is shared with the screen's other questions. */
	constructor(observer?: PromptObserver, line: QuestionLine = new QuestionLine()) {
		super();
		this.#observer = observer;
		this.#line = line;
	}

	/** Tools allowed for the rest of the session. */
	get allowed(): ReadonlySet<string> {
		return this.#allowed;
	}

	/** Offers "always, for this project" from now on (once the agent, which holds the rules, is set up). */
	provideRules(rules: RememberRules): void {
		this.#rules = rules;
	}

	readonly askPerson: AskPerson = async (request, signal) => {
		if (this.#allowed.has(sessionKey(request))) return allowedForSession;
		if (signal?.aborted) return withdrawn;
		const prompt: UiPrompt = {id: request.id, kind: 'approval', tool: request.name, title: request.ask.title};
		// Withdrawn, waiting for the line (child agents may ask while another question is open) or shown, by an interrupt or a cancel of the call that asked.
		const withdraw = new AbortController();
		const stop = signal ? AbortSignal.any([signal, withdraw.signal]) : withdraw.signal;
		const unanswered = () => (signal?.aborted ? withdrawn : interrupted);
		this.#queued.add(withdraw);
		try {
			let release: () => void;
			try {
				release = this.#line.tryTake() ?? (await this.#line.take(stop));
			} catch {
				return unanswered();
			}

			try {
				// Allowed for the session while it waited.
				if (this.#allowed.has(sessionKey(request))) return allowedForSession;
				// A rule that cannot be worked out is no reason not to ask: the option is left out.
				// No rule can allow a command outside the sandbox: none is offered.
				const rule = request.ask.outsideSandbox ? null : ((await this.#rules?.ruleFor(request).catch(() => null)) ?? null);
				this.#observer?.started(prompt);
				const choice = await new Promise<ApprovalChoice>(resolve => {
					stop.addEventListener('abort', () => resolve({kind: 'cancelled'}), {once: true});
					this.show({request: shownRequest(request), rule, answer: resolve});
				});
				this.show(null);
				this.#observer?.ended(prompt, choice.kind);
				if (choice.kind === 'cancelled') return unanswered();
				if (choice.kind === 'deny') return {decision: 'deny', by: 'user', reason: choice.reason.trim() === '' ? 'the person said no' : `the person said no: ${choice.reason.trim()}`};
				if (choice.kind === 'always') this.#allowed.add(sessionKey(request));
				if (choice.kind === 'remember' && rule !== null) await this.#rules?.remember(rule);
				return {decision: 'allow', by: 'user', reason: null};
			} finally {
				release();
			}
		} finally {
			this.#queued.delete(withdraw);
		}
	};

	/** A turn that ends (an interrupt) while a question is open or waiting answers it with a denial. */
	cancel(): void {
		for (const withdraw of this.#queued) withdraw.abort();
		this.getSnapshot()?.answer({kind: 'cancelled'});
	}
}

/**
 * The question as the box draws it: its name, owner, title and detail
 * printable, with each bidi and invisible character marked (`⟨U+202E⟩`), so
 * the command on screen is the one that runs (docs/approvals.md).
 */
function shownRequest(request: PendingApproval['request']): PendingApproval['request'] {
	return {...request, name: shownExact(request.name), owner: shownExact(request.owner), ask: {...request.ask, title: shownExact(request.ask.title), detail: shownExact(request.ask.detail)}};
}

/** What "allow for this session" covers: the tool, or, for a command outside the sandbox, such commands only (a sandboxed shell call allowed for the session never lets one out). */
export function sessionKey(request: {name: string; ask: {outsideSandbox?: boolean}}): string {
	return request.ask.outsideSandbox ? `${request.name} outside the sandbox` : request.name;
}
