import {hasCredentials, MAX_PROVIDER_ID_LENGTH, providerIdPattern} from '../catalogue/provider-id.js';
import type {OAuthAccessToken} from './api-oauth.js';

/** One token endpoint request may take this long unless the registration says otherwise. */
export const DEFAULT_TOKEN_TIMEOUT_MS = 30_000;
/** The bounds of `tokenTimeoutMs`: a token endpoint that needs more than a minute is down. */
export const MIN_TOKEN_TIMEOUT_MS = 1000;
export const MAX_TOKEN_TIMEOUT_MS = 60_000;
/** A client id, a scope, a parameter: short strings; more is a mistake. */
const MAX_FIELD_CHARS = 512;
const MAX_SCOPES = 64;
const MAX_PARAMS = 32;
const MAX_NAME_CHARS = 200;
/** The parameters the flow sets itself: an extension's would change the flow. */
const FLOW_PARAMS = new Set(['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method']);
/** Hosts an http:// endpoint may name: this machine only (a local test server, a local proxy). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A registration checked and copied: the extension changing its object later changes nothing. */
export interface CheckedOAuthProvider {
	id: string;
	name: string;
	clientId: string;
	scopes: string[];
	authorizationUrl: string | undefined;
	deviceAuthorizationUrl: string | undefined;
	tokenUrl: string;
	authorizationParams: Record<string, string>;
	tokenTimeoutMs: number;
	toApiKey: ((token: OAuthAccessToken) => string) | undefined;
}

/** The object `registerOAuthProvider` was given, checked field by field; throws an Error naming the slot and the field. */
export function checkOAuthProvider(value: unknown): CheckedOAuthProvider {
	const slot = 'registerOAuthProvider';
	if (value === null || typeof value !== 'object' || Array.isArray(value)) {
		throw new Error(`${slot} takes an object: {id, clientId, tokenUrl, authorizationUrl and/or deviceAuthorizationUrl, scopes?, name?, authorizationParams?, tokenTimeoutMs?, toApiKey?}`);
	}

	const fields = value as Record<string, unknown>;
	const {id} = fields;
	if (typeof id !== 'string' || !providerIdPattern.test(id)) {
		throw new Error(`${slot}: id must be the id of a provider this extension registers: 1–${MAX_PROVIDER_ID_LENGTH} of lower-case a-z, 0-9, ".", "_" or "-" (got ${JSON.stringify(id)})`);
	}

	const where = `${slot} "${id}"`;
	const name = fields.name === undefined ? id : shortString(fields.name, `${where}: name`, MAX_NAME_CHARS);
	const clientId = shortString(fields.clientId, `${where}: clientId`, MAX_FIELD_CHARS);
	const scopes = stringList(fields.scopes, `${where}: scopes`);
	const authorizationUrl = endpoint(fields.authorizationUrl, `${where}: authorizationUrl`, true);
	const deviceAuthorizationUrl = endpoint(fields.deviceAuthorizationUrl, `${where}: deviceAuthorizationUrl`, true);
	const tokenUrl = endpoint(fields.tokenUrl, `${where}: tokenUrl`, false)!;
	if (authorizationUrl === undefined && deviceAuthorizationUrl === undefined) {
		throw new Error(`${where}: give authorizationUrl (authorization code with PKCE), deviceAuthorizationUrl (device code), or both`);
	}

	const authorizationParams = params(fields.authorizationParams, `${where}: authorizationParams`);
	const {tokenTimeoutMs = DEFAULT_TOKEN_TIMEOUT_MS, toApiKey} = fields;
	if (typeof tokenTimeoutMs !== 'number' || !Number.isInteger(tokenTimeoutMs) || tokenTimeoutMs < MIN_TOKEN_TIMEOUT_MS || tokenTimeoutMs > MAX_TOKEN_TIMEOUT_MS) {
		throw new Error(`${where}: tokenTimeoutMs must be a whole number of milliseconds from ${MIN_TOKEN_TIMEOUT_MS} to ${MAX_TOKEN_TIMEOUT_MS} (got ${JSON.stringify(tokenTimeoutMs)})`);
	}

	if (toApiKey !== undefined && typeof toApiKey !== 'function') throw new Error(`${where}: toApiKey must be a function ({access, expires}) => key, or absent`);
	return {
		id,
		name,
		clientId,
		scopes,
		authorizationUrl,
		deviceAuthorizationUrl,
		tokenUrl,
		authorizationParams,
		tokenTimeoutMs,
		toApiKey: toApiKey as CheckedOAuthProvider['toApiKey'],
	};
}

function shortString(value: unknown, what: string, max: number): string {
	if (typeof value !== 'string' || value.trim() === '' || value.length > max || /[\u0000-\u001F\u007F]/.test(value)) {
		throw new Error(`${what} must be 1–${max} characters without control characters (got ${typeof value === 'string' ? `${value.length} characters` : JSON.stringify(value)})`);
	}

	return value;
}

function stringList(value: unknown, what: string): string[] {
	if (value === undefined) return [];
	if (!Array.isArray(value) || value.length > MAX_SCOPES) throw new Error(`${what} must be a list of at most ${MAX_SCOPES} strings`);
	return value.map((scope, index) => {
		const checked = shortString(scope, `${what}[${index}]`, MAX_FIELD_CHARS);
		if (/\s/.test(checked)) throw new Error(`${what}[${index}] holds a space; give each scope as its own string`);
		return checked;
	});
}

function params(value: unknown, what: string): Record<string, string> {
	if (value === undefined) return {};
	if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${what} must be an object of strings`);
	const entries = Object.entries(value as Record<string, unknown>);
	if (entries.length > MAX_PARAMS) throw new Error(`${what} has ${entries.length} parameters; at most ${MAX_PARAMS}`);
	const copied: Record<string, string> = {};
	for (const [key, param] of entries) {
		if (FLOW_PARAMS.has(key)) throw new Error(`${what}: "${key}" is set by the host's flow; leave it out`);
		copied[key] = shortString(param, `${what}.${key}`, MAX_FIELD_CHARS);
	}

	return copied;
}

/** An https:// URL, or http:// to this machine only: tokens never cross a network in the clear. */
function endpoint(value: unknown, what: string, optional: boolean): string | undefined {
	if (value === undefined && optional) return undefined;
	let url: URL | undefined;
	try {
		url = typeof value === 'string' ? new URL(value) : undefined;
	} catch {}

	const secure = url !== undefined && (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)));
	if (!secure) throw new Error(`${what} must be an https:// URL (http:// only to 127.0.0.1, localhost or [::1]) (got ${JSON.stringify(typeof value === 'string' ? value.slice(0, 200) : value)})`);
	if (hasCredentials(value as string)) throw new Error(`${what} may not hold a user name or password`);
	return url!.href;
}
