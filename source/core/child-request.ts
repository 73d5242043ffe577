import * as z from 'zod/mini';
import './zod-english.js';
import {describeIssues} from './config/describe-issues.js';
import {RuntimeActionError} from './extensions/runtime-link.js';

/** A child's task, in UTF-8 bytes. */
export const MAX_CHILD_TASK_BYTES = 20_000; // spec/extensions.md §3
/** Model requests a child may make: `maxTurns` 1–32, 8 when not given. */
export const MIN_CHILD_TURNS = 1; // spec/extensions.md §3
export const MAX_CHILD_TURNS = 32; // spec/extensions.md §3
export const DEFAULT_CHILD_TURNS = 8; // spec/extensions.md §3
/** How long a child may run before it is cancelled and fails: `timeoutSeconds` 10–1800, 300 when not given. */
export const MIN_CHILD_TIMEOUT_SECONDS = 10; // spec/extensions.md §3
export const MAX_CHILD_TIMEOUT_SECONDS = 1800; // spec/extensions.md §3
export const DEFAULT_CHILD_TIMEOUT_SECONDS = 300; // spec/extensions.md §3
/** A role is one line a person reads beside the child (spec/extensions.md §3, i's own bound; it keeps the chat screen's line and the approval title short). */
export const MAX_CHILD_ROLE_CHARS = 64;
/** Tools named in `tools`: at most one per tool a parent can have. */
export const MAX_CHILD_TOOLS = 256;
/** A child's handle as `poll`/`cancel`/`dispose` give it back: the host's ids are far shorter; anything longer is not one of them. */
export const MAX_CHILD_ID_CHARS = 128;

export interface ChildStart {
	task: string;
	role: string;
	maxTurns: number;
	timeoutSeconds: number;
	/** Names of the parent's active tools; undefined: all of them (delegate_task aside). */
	tools: string[] | undefined;
}

/** The native tool that hands a task to a child; never one of a child's own tools. */
export const DELEGATE_TOOL_NAME = 'delegate_task';
/** The owner of the children `delegate_task` starts: no extension can name it (extension names are package-like, never empty). */
export const CORE_OWNER = '';

export interface ChildResult {
	status: 'done' | 'failed';
	/** The child's final report (its last answer's text), cut to what the output budget left. */
	text: string;
	/** It stopped at maxTurns before it finished. */
	turnLimited: boolean;
	/** The report was cut to what the deltas left of the 4 MiB (child-output.ts); the poll's `truncated` also tells of cut deltas. */
	truncated: boolean;
}

/** What `delegate_task` needs of the host's child agents (agent/child-agents.ts): start one, wait for its end, let it go. */
export interface ChildStarter {
	start(owner: string, request: ChildStart, binding?: {signal?: AbortSignal}): Promise<{id: string; error: string | undefined; settled(): Promise<ChildResult>}>;
	dispose(owner: string, childId: string): void;
}

export type ChildRequest = {op: 'start'; start: ChildStart} | {op: 'poll' | 'cancel' | 'dispose'; childId: string};

export const childOps = ['start', 'poll', 'cancel', 'dispose'] as const;

const task = z.string().check(
	z.refine(value => value.trim() !== '', 'the task is empty'),
	z.refine(value => Buffer.byteLength(value) <= MAX_CHILD_TASK_BYTES, `at most ${MAX_CHILD_TASK_BYTES} bytes (UTF-8)`),
);
/** One line a person reads beside the child and in its approvals: never a line break or a control character. */
export const childRole = z.string().check(
	z.refine(value => value.trim() !== '', 'the role is empty'),
	z.refine(value => [...value].length <= MAX_CHILD_ROLE_CHARS, `at most ${MAX_CHILD_ROLE_CHARS} characters`),
	z.refine(value => !/[\u0000-\u001f\u007f]/.test(value), 'one line without control characters'),
);
const integer = (min: number, max: number) => z.number().check(z.refine(value => Number.isInteger(value) && value >= min && value <= max, `a whole number from ${min} to ${max}`));
const toolNames = z.array(z.string()).check(z.maxLength(MAX_CHILD_TOOLS, `at most ${MAX_CHILD_TOOLS} names`));

/** The fields a child's start takes, shared by `childAgent` and `delegate_task`. */
export const childStartFields = {
	task,
	role: z.optional(childRole),
	maxTurns: z.optional(integer(MIN_CHILD_TURNS, MAX_CHILD_TURNS)),
	timeoutSeconds: z.optional(integer(MIN_CHILD_TIMEOUT_SECONDS, MAX_CHILD_TIMEOUT_SECONDS)),
	tools: z.optional(toolNames),
};

const startSchema = z.strictObject({op: z.literal('start'), ...childStartFields});
const handleSchema = z.strictObject({
	op: z.enum(['poll', 'cancel', 'dispose']),
	childId: z.string().check(z.minLength(1, 'the childId is empty'), z.maxLength(MAX_CHILD_ID_CHARS, `at most ${MAX_CHILD_ID_CHARS} characters`)),
});

/** An extension's `childAgent` request, checked field by field; a bad one is `invalid_argument` naming the field, the extension and the limit. */
export function readChildRequest(request: unknown, extension: string): ChildRequest {
	const where = `extension ${extension}`;
	if (request === null || typeof request !== 'object' || Array.isArray(request))
		throw new RuntimeActionError('childAgent', 'invalid_argument', `${where}: the request is not an object; give {op: "start" | "poll" | "cancel" | "dispose", …}`);
	const op = (request as {op?: unknown}).op;
	if (!childOps.includes(op as (typeof childOps)[number])) {
		throw new RuntimeActionError('childAgent', 'invalid_argument', `${where}: field "op" is ${op === undefined ? 'missing' : JSON.stringify(op)}; it is one of ${childOps.join(', ')}`);
	}

	if (op === 'start') {
		const parsed = startSchema.safeParse(request);
		if (!parsed.success) throw new RuntimeActionError('childAgent', 'invalid_argument', `${where}: start: ${describeIssues(parsed.error.issues, request)}`);
		return {op, start: withDefaults(parsed.data)};
	}

	const parsed = handleSchema.safeParse(request);
	if (!parsed.success) throw new RuntimeActionError('childAgent', 'invalid_argument', `${where}: ${String(op)}: ${describeIssues(parsed.error.issues, request)}`);
	return {op: parsed.data.op, childId: parsed.data.childId};
}

export function withDefaults(fields: {task: string; role?: string | undefined; maxTurns?: number | undefined; timeoutSeconds?: number | undefined; tools?: string[] | undefined}): ChildStart {
	return {
		task: fields.task,
		role: fields.role?.trim() ?? 'child',
		maxTurns: fields.maxTurns ?? DEFAULT_CHILD_TURNS,
		timeoutSeconds: fields.timeoutSeconds ?? DEFAULT_CHILD_TIMEOUT_SECONDS,
		tools: fields.tools,
	};
}
