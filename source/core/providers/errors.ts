import {TurnError} from '../errors.js';
import type {Usage} from '../usage.js';

/** `request`: the request could not be made at all (its body does not serialise); nothing was sent. */
export type ProviderErrorKind = 'http' | 'stream' | 'network' | 'aborted' | 'request';

export interface ProviderErrorFields {
	kind: ProviderErrorKind;
	status?: number;
	/** Text the person already saw before the failure. */
	partialText?: string;
	/** Whether trying the same request again could succeed (a 429, a 5xx, a dropped connection). */
	retryable?: boolean;
}

/** A model call failed. The message names the provider and says what went wrong; it never holds the API key. */
export class ProviderError extends TurnError {
	override name = 'ProviderError';
	readonly kind: ProviderErrorKind;
	readonly status: number | undefined;
	/** Set by `sendRequest` when the failure ends a stream that already showed text. */
	partialText: string;
	readonly retryable: boolean;
	/** What the request had used when it ended (an extension provider's last `usage` frame): the turn still reports it. */
	usage: Usage | null = null;

	constructor(message: string, fields: ProviderErrorFields) {
		super(message);
		this.kind = fields.kind;
		this.status = fields.status;
		this.partialText = fields.partialText ?? '';
		this.retryable = fields.retryable ?? false;
	}
}

/** The response stream broke its protocol: malformed, truncated or oversized. */
export class StreamProtocolError extends ProviderError {
	override name = 'StreamProtocolError';

	constructor(message: string) {
		super(message, {kind: 'stream'});
	}
}

/** Longest piece of foreign text (a provider message, a bad data line) quoted in an error. */
export const MAX_QUOTE_CHARS = 200;

/** A short, single-line quote of untrusted text for an error message. */
export function quote(text: string): string {
	const line = text.replace(/\s+/g, ' ').trim();
	return line.length > MAX_QUOTE_CHARS ? `${line.slice(0, MAX_QUOTE_CHARS)}…` : line;
}

/**
 * The provider's own message from an error body: `{"error":{"message"}}`
 * (OpenAI, DeepSeek, Responses) and `{"type":"error","error":{"type","message"}}`
 * (Anthropic) both have it at `error.message`; anything else is quoted raw.
 */
export function providerMessage(body: string): string {
	let json: unknown;
	try {
		json = JSON.parse(body);
	} catch {
		return body.trim() === '' ? '(empty response body)' : quote(body);
	}

	const error = isRecord(json) ? json.error : undefined;
	if (isRecord(error) && typeof error.message === 'string') return quote(error.message);

	if (typeof error === 'string') return quote(error);
	if (isRecord(json) && typeof json.message === 'string') return quote(json.message);
	return quote(body);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const MIB = 1024 * 1024;

/** A byte limit as people read it: "48 MiB", or exact bytes when not whole mebibytes. */
export function formatBytes(bytes: number): string {
	return bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes} bytes`;
}

/** Headers whose values authenticate, whoever set them. */
const CREDENTIAL_HEADER = /^(authorization|x-api-key|api-key)$/i;
/** Shorter values are not hidden: they could match innocent text. */
const MIN_SECRET_CHARS = 8;

/**
 * Values that authenticate: never echoed, even when a server or library
 * repeats them. The credential headers', and those of the headers
 * `secretNames` lists (a models.json provider's `headers`, secrets like keys).
 */
export function secretsOf(headers: Readonly<Record<string, string>>, secretNames: readonly string[] = []): string[] {
	const named = new Set(secretNames.map(name => name.toLowerCase()));
	const values: string[] = [];
	for (const [name, value] of Object.entries(headers)) {
		if (!CREDENTIAL_HEADER.test(name) && !named.has(name.toLowerCase())) continue;
		values.push(value);
		const bearer = /^bearer\s+(.+)$/i.exec(value);
		if (bearer?.[1]) values.push(bearer[1]);
	}

	return secretValues(values);
}

/** The values `redact` hides, as every caller gathers them: each of at least 8 characters, once, longest first (so a key inside "Bearer key" is caught either way). */
export function secretValues(values: ReadonlyArray<string | null | undefined>): string[] {
	const kept = values.filter((value): value is string => typeof value === 'string' && value.length >= MIN_SECRET_CHARS);
	return [...new Set(kept)].sort((a, b) => b.length - a.length);
}

/** `text` with every secret replaced by "[redacted]". */
export function redact(text: string, secrets: readonly string[]): string {
	return secrets.reduce((result, secret) => result.split(secret).join('[redacted]'), text);
}

/** The first `code` on an error or its causes (ECONNRESET, UND_ERR_SOCKET…). */
export function errorCode(error: unknown): string | undefined {
	for (let current = error, depth = 0; current && depth < 4; depth++) {
		const code = (current as {code?: unknown}).code;
		if (typeof code === 'string') return code;
		current = (current as {cause?: unknown}).cause;
	}

	return undefined;
}

/** An error as one quoted line, its code first when the message does not hold it: "ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9". */
export function describeError(error: unknown): string {
	const code = errorCode(error);
	const message = error instanceof Error ? error.message : String(error);
	return quote(code && !message.includes(code) ? `${code}: ${message}` : message);
}
