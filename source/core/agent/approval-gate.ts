import {NATIVE_OWNER} from '../tools/tool-owner.js';
import type {ApprovalAsk} from '../tools/types.js';
import {planModeTools, type PermissionModeSource} from './permission-mode.js';

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
	/** `auto`: the tool runs without asking and no policy changed that; `rule`: a permission rule decided; `mode`: plan or accept-edits mode; `yolo`: bypass mode. */
	by: 'auto' | 'rule' | 'policy' | 'mode' | 'yolo' | 'user' | 'no_terminal';
	reason: string | null;
}

/** What the permission rules say about a call (permissions/decide.ts), with the rule and its file in `reason`. */
export interface RuleAnswer {
	decision: 'allow' | 'ask' | 'deny';
	reason: string;
}

/** The run's permission rules: null when none speaks about the call. */
export type PermissionCheck = (request: ApprovalRequest) => Promise<RuleAnswer | null>;

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

/**
 * The order (docs/approvals.md, "The order of decisions"): the core
 * proposes (ask for what changes things, reaches outside the workspace or
 * is external); the permission rules come next, and a rule's deny is final,
 * even with --yolo; then the policy, which may tighten anything but never
 * waives a question that a rule's ask or an external tool needs (a
 * person's allow rule may waive an external tool's: it is an answer given
 * in advance); then --yolo answers what is left to ask; then the person.
 * The permission mode is read at each call: plan mode refuses what is not
 * read-only right after a rule's deny; accept-edits answers the core's own
 * question about a workspace edit; bypass (--yolo) answers what is left.
 * A failing rule check or policy never allows.
 */
export function createApprovalGate(options: {mode: PermissionModeSource; askPerson: AskPerson; policy?: ApprovalPolicy | undefined; rules?: PermissionCheck | undefined}): ApprovalGate {
	return async (request, signal) => {
		const mode = options.mode.current;
		let proposed: 'allow' | 'ask' | 'deny' = request.ask || request.external ? 'ask' : 'allow';
		let rule: RuleAnswer | null = null;
		if (options.rules) {
			try {
				rule = await options.rules(request);
			} catch (error) {
				return {decision: 'deny', by: 'rule', reason: `the permission rules failed: ${(error as Error).message}`};
			}

			if (rule?.decision === 'deny') return {decision: 'deny', by: 'rule', reason: rule.reason};
			if (rule) proposed = rule.decision;
		}

		if (mode === 'plan' && !(request.owner === NATIVE_OWNER && planModeTools.has(request.name))) {
			return {decision: 'deny', by: 'mode', reason: `plan mode: only read-only tools run (${[...planModeTools].join(', ')}); ${request.name} was not run. Present your plan instead`};
		}

		// spec/platform.md §1: every external tool call needs approval; a policy may deny it, never waive the ask.
		// A command outside the sandbox is the person's to allow, whatever else would.
		const outside = request.owner === NATIVE_OWNER && request.ask?.outsideSandbox === true;
		const mustAsk = outside || (rule ? rule.decision === 'ask' : request.external);
		let decision: 'allow' | 'ask' | 'deny' = proposed;
		let by: ApprovalOutcome['by'] = rule ? 'rule' : 'auto';
		if (options.policy) {
			try {
				const answer = await options.policy({name: request.name, arguments: request.arguments, external: request.external, decision: proposed}, signal);
				decision = readPolicyDecision(answer);
			} catch (error) {
				return {decision: 'deny', by: 'policy', reason: `the approval policy failed: ${(error as Error).message}`};
			}

			if (decision !== proposed) by = 'policy';
		}

		if (decision === 'allow' && mustAsk) decision = 'ask';
		if (decision === 'deny') return {decision, by: 'policy', reason: 'denied by the approval policy'};
		if (decision === 'allow') return {decision, by, reason: by === 'rule' ? rule!.reason : null};
		if (mode === 'bypassPermissions' && !outside) return {decision: 'allow', by: 'yolo', reason: null};
		// Only the core's own question about a workspace edit: a rule's or the policy's ask still asks.
		if (mode === 'acceptEdits' && by === 'auto' && isWorkspaceEdit(request)) return {decision: 'allow', by: 'mode', reason: 'allowed in accept edits mode'};
		const ask = request.ask ?? {
			title: `Run ${request.name}`,
			detail: JSON.stringify(request.arguments, null, 2),
		};
		const asked = rule?.decision === 'ask' ? {...ask, detail: `${ask.detail}\n\n${rule.reason}`} : ask;
		const answer = await options.askPerson({...request, ask: asked}, signal);
		if (answer.by === 'no_terminal' && outside) {
			return {
				...answer,
				reason:
					'the command would run outside the sandbox, which only a person can allow, and there is no terminal to ask on (--yolo does not allow it); run it in the chat screen, or pass --no-sandbox (docs/sandbox.md)',
			};
		}

		// Without a terminal the rule that asked is named, so the person knows which one to change.
		return answer.by === 'no_terminal' && rule?.decision === 'ask' ? {...answer, reason: `${rule.reason}; ${answer.reason ?? 'there is no one to ask'}`} : answer;
	};
}

/** A native edit or write whose every file is inside the workspace (the tool says so on its ask). */
function isWorkspaceEdit(request: ApprovalRequest): boolean {
	return request.owner === NATIVE_OWNER && (request.name === 'edit' || request.name === 'write') && request.ask?.insideWorkspace === true;
}

function readPolicyDecision(answer: unknown): 'allow' | 'ask' | 'deny' {
	const value = typeof answer === 'object' && answer !== null ? (answer as {decision?: unknown}).decision : undefined;
	if (value === 'allow' || value === 'ask' || value === 'deny') return value;
	throw new Error(`it returned ${JSON.stringify(value)} instead of "allow", "ask" or "deny"`);
}
