import type {AssistantMessage, Message} from '../messages.js';
import {describeShapeProblem, historyShapeProblem} from '../history/history-shape.js';
import {messageSchema} from '../history/message-schema.js';
import {firstIssue} from '../session/session-schema.js';
import {MAX_DELIVERY_TEXT_BYTES} from './check-delivery.js';

/**
 * How the agent loop reads extension transforms' answers
 * (spec/extensions.md §5): each reader gets the handler's answer and the
 * value before it, and returns the next value, or undefined for
 * "unchanged" (no answer, `{}`). An answer of the wrong shape throws: the
 * event bus reports it with the extension's name and keeps the previous
 * value.
 */

type Answer = Record<string, unknown>;

function fields(answer: unknown): Answer | undefined {
	if (answer === undefined || answer === null) return undefined;
	if (typeof answer !== 'object' || Array.isArray(answer)) throw new Error(`an answer must be an object, not ${Array.isArray(answer) ? 'a list' : typeof answer}`);
	return answer as Answer;
}

/** `Input`: `{text}` replaces the prompt. */
export function readInputAnswer(answer: unknown, previous: {text: string}): {text: string} | undefined {
	const value = fields(answer);
	if (value?.text === undefined) return undefined;
	if (typeof value.text !== 'string') throw new Error('"text" must be a string');
	return {...previous, text: value.text};
}

/**
 * `Context`: `{messages}` replaces what this one request carries (never what
 * is saved). The history must be one the provider accepts, checked as a hook's
 * answer is (hook-results.ts): a broken one would come back as an HTTP 400
 * that names nobody.
 */
export function readContextAnswer(answer: unknown, previous: {messages: Message[]}): {messages: Message[]} | undefined {
	const value = fields(answer);
	if (value?.messages === undefined) return undefined;
	const {messages} = value;
	if (!Array.isArray(messages)) throw new Error('"messages" must be a list of messages');
	if (messages.length === 0) throw new Error('"messages" is empty; a request carries at least one message');
	for (const [index, message] of messages.entries()) {
		const parsed = messageSchema.safeParse(message);
		if (!parsed.success) throw new Error(`"messages" holds a message the provider cannot take: message ${index}: ${firstIssue(parsed.error)}`);
	}

	const problem = historyShapeProblem(messages as Message[]);
	if (problem) throw new Error(`"messages" is a history the provider would refuse: ${describeShapeProblem(problem)}`);
	return {...previous, messages: messages as Message[]};
}

/** `BeforeProviderRequest`: `{body}` replaces the request body; the URL stays the host's (the origin lock). */
export function readProviderRequest<T extends {body: Record<string, unknown>}>(answer: unknown, previous: T): T | undefined {
	const value = fields(answer);
	if (value?.body === undefined) return undefined;
	if (value.body === null || typeof value.body !== 'object' || Array.isArray(value.body)) throw new Error('"body" must be an object');
	return {...previous, body: value.body as Record<string, unknown>};
}

/**
 * A `MessageEnd` replacement's text, UTF-8: at most the bound of any text an
 * extension puts into the history (a delivered message's, 256 KiB,
 * check-delivery.ts), since it is saved and sent with every later request;
 * a replacement no longer than the answer it replaces is always taken, so a
 * redaction of a long answer still applies.
 */
export const MAX_MESSAGE_END_BYTES = MAX_DELIVERY_TEXT_BYTES;

/** The answer as `MessageEnd` leaves it, and the extension whose answer replaced its text last (null: nobody did). */
export interface MessageEndValue {
	message: AssistantMessage;
	replacedBy: string | null;
}

/** `MessageEnd`: `{content}` replaces the answer's text, which is what is saved and sent next. */
export function readMessageEnd(answer: unknown, previous: MessageEndValue, extension: string): MessageEndValue | undefined {
	const value = fields(answer);
	if (value?.content === undefined) return undefined;
	if (typeof value.content !== 'string') throw new Error('"content" must be a string');
	const bytes = Buffer.byteLength(value.content);
	if (bytes > MAX_MESSAGE_END_BYTES && bytes > Buffer.byteLength(previous.message.content ?? '')) {
		throw new Error(`"content" is ${bytes} bytes, over the limit of ${MAX_MESSAGE_END_BYTES} (256 KiB) and longer than the answer it replaces`);
	}

	if (value.content === previous.message.content) return undefined;
	return {message: {...previous.message, content: value.content}, replacedBy: extension};
}

/** `ToolCall`: `{block: true, reason?}` blocks; `{block: false}` is an allow, which can never undo another's block; anything else no opinion. */
export function readToolBlock(answer: unknown): {allow: boolean; reason: string | null} | undefined {
	const value = fields(answer);
	if (value?.block === undefined) return undefined;
	if (typeof value.block !== 'boolean') throw new Error('"block" must be true or false');
	return {allow: !value.block, reason: typeof value.reason === 'string' && value.reason.length > 0 ? value.reason : null};
}

/** `ToolResult`: `{output?, isError?}` replaces the result the model sees. */
export function readToolResult<T extends {output: string; isError: boolean}>(answer: unknown, previous: T): T | undefined {
	const value = fields(answer);
	if (value === undefined || (value.output === undefined && value.isError === undefined)) return undefined;
	if (value.output !== undefined && typeof value.output !== 'string') throw new Error('"output" must be a string');
	if (value.isError !== undefined && typeof value.isError !== 'boolean') throw new Error('"isError" must be true or false');
	return {...previous, ...(value.output === undefined ? {} : {output: value.output}), ...(value.isError === undefined ? {} : {isError: value.isError})};
}

/** `SessionBefore*`: `{cancel: true, reason?}` cancels; `{cancel: false}` lets it go on, which can never undo another's cancel; anything else no opinion. */
export function readCancel(answer: unknown): {allow: boolean; reason: string | null} | undefined {
	const value = fields(answer);
	if (value?.cancel === undefined) return undefined;
	if (typeof value.cancel !== 'boolean') throw new Error('"cancel" must be true or false');
	return {allow: !value.cancel, reason: typeof value.reason === 'string' && value.reason.length > 0 ? value.reason : null};
}

/** `ProjectTrust`: `{trusted: false, reason?}` refuses, `{trusted: true, reason?}` allows (never over a refusal); anything else no opinion. */
export function readTrustAnswer(answer: unknown): {allow: boolean; reason: string | null} | undefined {
	const value = fields(answer);
	if (value?.trusted === undefined) return undefined;
	if (typeof value.trusted !== 'boolean') throw new Error('"trusted" must be true or false');
	return {allow: value.trusted, reason: typeof value.reason === 'string' && value.reason.length > 0 ? value.reason : null};
}

/** The output a `UserBash` answer may give: a command's own output is kept to the same bound (run-command.ts `MAX_COMMAND_OUTPUT_BYTES`). */
export const MAX_USER_BASH_ANSWER_CHARS = 1024 * 1024;

/** What `UserBash` carries: the command, and once a handler answered, the result that replaces running it. */
export interface UserBashValue {
	command: string;
	cwd: string;
	excludeFromContext: boolean;
	result: {output: string; exitCode: number; extension: string} | null;
}

/** `UserBash`: `{result: {output, exitCode?}}` replaces running the command (exitCode defaults to 0); anything else keeps it. */
export function readUserBashAnswer(answer: unknown, previous: UserBashValue, extension: string): UserBashValue | undefined {
	const value = fields(answer);
	if (value?.result === undefined) return undefined;
	const result = value.result;
	if (result === null || typeof result !== 'object' || Array.isArray(result)) throw new Error('"result" must be an object {output, exitCode?}');
	const {output, exitCode} = result as Record<string, unknown>;
	if (typeof output !== 'string') throw new Error('"result.output" must be a string');
	if (output.length > MAX_USER_BASH_ANSWER_CHARS) throw new Error(`"result.output" is ${output.length} characters, over the ${MAX_USER_BASH_ANSWER_CHARS} limit`);
	if (exitCode !== undefined && (typeof exitCode !== 'number' || !Number.isInteger(exitCode) || exitCode < 0 || exitCode > 255)) {
		throw new Error('"result.exitCode" must be an integer from 0 to 255');
	}

	return {...previous, result: {output, exitCode: exitCode ?? 0, extension}};
}
