import type {CheckedOAuthProvider} from '../../extensions/check-oauth.js';
import {describeThrown} from '../../extensions/describe-thrown.js';
import type {AuthFile, StoredCredential} from '../auth-file.js';
import {describeTime} from '../resolve-credential.js';
import {flowLabel, OAuthError, postForm, readTokens} from './token-endpoint.js';

/** A token this close to its expiry is refreshed before a request: one that starts just before would fail mid-turn. */
export const REFRESH_MARGIN_MS = 300_000;
/** Waiting for another process's refresh: its token request's bound and this much more for reading and writing the file. */
const LOCK_SLACK_MS = 5000;

type OAuthEntry = Extract<StoredCredential, {type: 'oauth'}>;

/** The key a request sends, and the access token it came from (two requests compare tokens, not keys). */
export interface OAuthCredential {
	key: string;
	access: string;
}

/**
 * A provider's OAuth tokens in auth.json, as a run uses them: the key for
 * the next request, refreshed first when the token is within
 * REFRESH_MARGIN_MS of its expiry, and refreshed once more when a request
 * with it was answered 401. A refresh runs under auth.json's lock and looks
 * at the entry again first: a process that waited for another's refresh
 * uses the new tokens and spends no refresh token. Every failure is an
 * OAuthError naming the provider; nothing is written then.
 */
export class OAuthKey {
	readonly #flow: CheckedOAuthProvider;
	readonly #store: AuthFile;
	readonly #extension: string;
	readonly #now: () => number;

	constructor(flow: CheckedOAuthProvider, store: AuthFile, extension: string, now: () => number = Date.now) {
		this.#flow = flow;
		this.#store = store;
		this.#extension = extension;
		this.#now = now;
	}

	/** The key for the next request. */
	async current(signal: AbortSignal): Promise<OAuthCredential> {
		const entry = this.#entry(this.#store.read().get(this.#flow.id));
		if (entry.expires - this.#now() > REFRESH_MARGIN_MS) return this.#credential(entry);
		return this.#credential(await this.#refresh(current => (current.expires - this.#now() <= REFRESH_MARGIN_MS ? this.#expiry(current) : undefined), signal));
	}

	/** The key after a request with `used` was answered 401: new tokens, unless another process already replaced that one. */
	async afterUnauthorized(used: OAuthCredential, signal: AbortSignal): Promise<OAuthCredential> {
		return this.#credential(await this.#refresh(current => (current.access === used.access ? 'the provider answered 401 to it' : undefined), signal));
	}

	/** `it expired …` or `it expires …`: why a token near its expiry is refreshed. */
	#expiry(entry: OAuthEntry): string {
		return entry.expires <= this.#now() ? `it expired ${describeTime(entry.expires)}` : `it expires ${describeTime(entry.expires)}`;
	}

	/** `needed` says why the entry as it is now needs new tokens, or undefined when it does not (another process refreshed it). */
	async #refresh(needed: (entry: OAuthEntry) => string | undefined, signal: AbortSignal): Promise<OAuthEntry> {
		const flow = this.#flow;
		const stored = await this.#store.update(
			flow.id,
			async current => {
				const entry = this.#entry(current);
				const why = needed(entry);
				if (why === undefined) return undefined;
				if (entry.refresh === undefined || entry.refresh === '') {
					throw new OAuthError(`${flowLabel(flow)}: the OAuth token needs a refresh (${why}), but auth.json holds no refresh token; run i auth login ${flow.id}`);
				}

				const form = {grant_type: 'refresh_token', refresh_token: entry.refresh, client_id: flow.clientId};
				let tokens;
				try {
					tokens = readTokens(flow, flow.tokenUrl, await postForm(flow, flow.tokenUrl, form, signal), this.#now(), entry.refresh);
				} catch (error) {
					if (!(error instanceof OAuthError)) throw error;
					const again = error.code === 'invalid_grant' ? `; the refresh token is no longer accepted: run i auth login ${flow.id}` : '';
					throw new OAuthError(`refreshing the OAuth token (${why}) failed: ${error.message}${again}`, error.code);
				}

				return {type: 'oauth', access: tokens.access, refresh: tokens.refresh, expires: tokens.expires};
			},
			flow.tokenTimeoutMs + LOCK_SLACK_MS,
		);
		return this.#entry(stored);
	}

	#entry(entry: StoredCredential | undefined): OAuthEntry {
		if (entry?.type === 'oauth') return entry;
		const what = entry === undefined ? 'no longer holds an entry' : 'now holds an API key, not OAuth tokens,';
		throw new OAuthError(`${flowLabel(this.#flow)}: ${this.#store.path} ${what} for ${this.#flow.id}; run i auth login ${this.#flow.id}`);
	}

	/** The extension's `toApiKey` over the stored token, or the access token itself. */
	#credential(entry: OAuthEntry): OAuthCredential {
		const map = this.#flow.toApiKey;
		if (map === undefined) return {key: entry.access, access: entry.access};
		let key: unknown;
		try {
			key = map({access: entry.access, expires: entry.expires});
		} catch (error) {
			throw new OAuthError(`extension ${this.#extension}: toApiKey of provider ${this.#flow.id} failed: ${describeThrown(error).split(entry.access).join('[redacted]')}`);
		}

		if (typeof key !== 'string' || key.trim() === '')
			throw new OAuthError(`extension ${this.#extension}: toApiKey of provider ${this.#flow.id} answered ${typeof key === 'string' ? 'a blank string' : typeof key}, not a key`);
		return {key, access: entry.access};
	}
}
