import type {ApprovalAsk} from '../tools/types.js';

export type ApprovalDecision = 'allow' | 'deny';

export interface ApprovalRequest {
	id: string;
	name: string;
	arguments: Record<string, unknown>;
	/** Who provides the tool (tool-owner.ts): `native`, `official module memory`, `extension todo (FILE)`, `MCP server docs (FILE)`. */
	owner: string;
	/** What the tool would do; null when it may run without asking. */
	ask: ApprovalAsk | null;
	/** External (worker) tools always ask unless --yolo. */
	external: boolean;
}

export interface ApprovalOutcome {
	decision: ApprovalDecision;
	/** `auto`: the tool runs without asking and no policy changed that. */
	by: 'auto' | 'policy' | 'yolo' | 'user' | 'no_terminal';
	reason: string | null;
}

/**
 * How a head asks the person. Print and line mode have no one to ask.
 * `signal` aborts when the call that asks is cancelled (a child agent's
 * timeout, say): the question is then withdrawn and answers a denial.
 */
export type AskPerson = (
	request: ApprovalRequest & {ask: ApprovalAsk},
	signal?: AbortSignal,
) => Promise<{
	decision: ApprovalDecision;
	by: 'user' | 'no_terminal';
	reason: string | null;
}>;

/**
 * The `tool_approval` policy point: gets the proposed decision and returns
 * allow / ask / deny. Anything else, or a failure, never allows.
 */
export type ApprovalPolicy = (
	data: {
		name: string;
		arguments: Record<string, unknown>;
		external: boolean;
		decision: 'allow' | 'ask' | 'deny';
	},
	signal?: AbortSignal,
) => Promise<unknown>;

export type ApprovalGate = (request: ApprovalRequest, signal?: AbortSignal) => Promise<ApprovalOutcome>;

export function createApprovalGate(options: {yolo: boolean; askPerson: AskPerson; policy?: ApprovalPolicy}): ApprovalGate {
	return async (request, signal) => {
		const proposed = request.ask || request.external ? 'ask' : 'allow';
		let decision: 'allow' | 'ask' | 'deny' = proposed;
		let by: ApprovalOutcome['by'] = 'auto';
		if (options.policy) {
			try {
				const answer = await options.policy(
					{
						name: request.name,
						arguments: request.arguments,
						external: request.external,
						decision: proposed,
					},
					signal,
				);
				decision = readPolicyDecision(answer);
			} catch (error) {
				return {decision: 'deny', by: 'policy', reason: `the approval policy failed: ${(error as Error).message}`};
			}

			if (decision !== proposed) by = 'policy';
		}

		// spec/platform.md §1: every external tool call needs approval; a policy may deny it, never waive the ask.
		if (decision === 'allow' && request.external) decision = 'ask';

		if (decision === 'deny') return {decision, by: 'policy', reason: 'denied by the approval policy'};
		if (decision === 'allow') return {decision, by, reason: null};
		if (options.yolo) return {decision: 'allow', by: 'yolo', reason: null};
		const ask = request.ask ?? {title: `Run ${request.name}`, detail: JSON.stringify(request.arguments, null, 2)};
		return options.askPerson({...request, ask}, signal);
	};
}

function readPolicyDecision(answer: unknown): 'allow' | 'ask' | 'deny' {
	const value = typeof answer === 'object' && answer !== null ? (answer as {decision?: unknown}).decision : undefined;
	if (value === 'allow' || value === 'ask' || value === 'deny') return value;
	throw new Error(`it returned ${JSON.stringify(value)} instead of "allow", "ask" or "deny"`);
}
