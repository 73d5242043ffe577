import type {ModelCaller} from '../providers/model-caller.js';
import {neutralBody} from '../providers/neutral-body.js';
import {ProviderError, redact, secretsOf, secretValues} from '../providers/errors.js';
import type {PreparedRequest} from '../providers/types.js';
import type {ProviderRequest} from './api.js';
import type {CheckedProvider} from './check-provider.js';
import type {CheckedOAuthProvider} from './check-oauth.js';
import {defaultRunLimits, ProviderRun, type RunLimits} from './provider-run.js';
import {hostFetch} from './provider-fetch.js';
import {createCompletions} from './provider-completions.js';
import type {HttpOptions} from '../providers/http.js';

/** A provider an extension registered, with whose it is. */
export interface OwnedProvider {
	extension: string;
	provider: CheckedProvider;
	/** Its OAuth flow (registerOAuthProvider), when the extension registered one. */
	oauth?: CheckedOAuthProvider;
}

/**
 * The pseudo-URL of an extension provider's requests: `extension://<id>`.
 * Hooks see it in `url`; like a provider worker's, its origin may not change.
 */
export function providerUrl(id: string): string {
	return `extension://${id}`;
}

export interface ExtensionCallerOptions {
	model: string;
	maxTokens?: number;
	extraBody: Record<string, unknown>;
	/** Tests shorten the idle limits; a run has the HTTP layer's. */
	limits?: RunLimits;
	/** `io.completions`' HTTP options: the config's `max_retries`. */
	http?: HttpOptions;
	/**
	 * What the host bound for this provider (execution-binding.ts): the resolved key and the endpoint and
	 * headers, given to each request as `req.apiKey`, `req.baseUrl`, `req.headers`. Copied here, so nothing
	 * the extension or a hook changes reaches the next request. Absent (a config's `protocol`): null, null, {}.
	 */
	binding?: {apiKey: string | null; baseUrl: string | null; headers: Readonly<Record<string, string>>};
}

/**
 * A model reached through an extension's `registerProvider` /
 * `registerStreamingProvider` (spec/extensions.md §5). `prepare` builds
 * the body a provider worker gets, `{...extra_body, model, messages, tools,
 * max_tokens?}`, so the Context, BeforeProviderRequest and before_request
 * transforms change it as for any provider; `send` reads `req` from the body
 * it is given, after them. Frames become the core's live events at once; the
 * one terminal is the extension's message, its failure, the cancel, or an
 * idle limit, whichever comes first (provider-run.ts).
 */
export function createExtensionProviderCaller(owned: OwnedProvider, options: ExtensionCallerOptions): ModelCaller {
	const {provider, extension} = owned;
	const label = `extension ${extension} provider "${provider.id}"`;
	const url = providerUrl(provider.id);
	const binding = Object.freeze({apiKey: options.binding?.apiKey ?? null, baseUrl: options.binding?.baseUrl ?? null, headers: Object.freeze({...options.binding?.headers})});
	// The key and models.json's headers are secrets: whatever the extension or its server repeats of them, no message shows.
	const secrets = secretValues([binding.apiKey, ...secretsOf(binding.headers, Object.keys(binding.headers))]);
	const hide = (text: string) => redact(text, secrets);
	return {
		protocol: provider.id,
		provider: provider.id,
		model: options.model,
		prepare: (messages, tools) => ({url, body: neutralBody(options, messages, tools)}),
		async send(request, io) {
			if (io.signal.aborted) throw new ProviderError(`${label}: request cancelled`, {kind: 'aborted'});
			if (io.wire !== undefined) {
				throw new ProviderError(
					`${label}: a before_request hook asked for the "${io.wire}" wire, but an extension provider answers with frames, not an HTTP stream to assemble; drop the wire-converting module (such as responses) from the plugins of this config`,
					{kind: 'stream'},
				);
			}

			// before_request's origin lock already holds (hook-results.ts); this also covers a caller driven without it.
			if (request.url !== url) throw new ProviderError(`${label}: the request was moved to ${JSON.stringify(request.url.slice(0, 80))}; it goes to ${url}`, {kind: 'request'});
			// The binding is added after the hooks: they never see the key, and a fresh copy goes to each request.
			const req: ProviderRequest = {...readRequest(request, label), apiKey: binding.apiKey, baseUrl: binding.baseUrl, headers: {...binding.headers}};
			const warn = io.warn;
			const run = new ProviderRun({label, streaming: provider.streaming, emit: io.emit, warn: warn ? message => warn(hide(message)) : () => {}, limits: options.limits ?? defaultRunLimits});
			const onAbort = () => run.cancel();
			io.signal.addEventListener('abort', onAbort, {once: true});
			try {
				const completions = createCompletions({
					label,
					baseUrl: provider.baseUrl,
					signal: run.signal,
					// Thinking and text as two content blocks of the run's frames: counted against its limit and shown at once.
					emit: event => run.frame({type: event.type, contentIndex: event.type === 'thinking_delta' ? 0 : 1, delta: event.text}),
					onRetry: async notice => {
						run.retrying(notice.delayMs);
						await io.onRetry(notice);
					},
					...(options.http ? {http: options.http} : {}),
					...(io.transformHeaders ? {transformHeaders: io.transformHeaders} : {}),
				});
				const ioForExtension = provider.streaming
					? {emit: (frame: unknown) => run.frame(frame), control: run.control, signal: run.signal, fetch: hostFetch, completions}
					: {signal: run.signal, fetch: hostFetch};
				// A throw inside request and a rejection are the same failure; the promise settles unobserved after the terminal (no unhandled rejection).
				Promise.resolve()
					.then(async () => provider.request(req, ioForExtension as never))
					.then(
						value => run.resolved(value),
						(error: unknown) => run.rejected(error),
					);
				return await run.result();
			} catch (error) {
				if (error instanceof ProviderError) {
					error.message = hide(error.message);
					if (error.stack) error.stack = hide(error.stack);
				}

				throw error;
			} finally {
				io.signal.removeEventListener('abort', onAbort);
			}
		},
	};
}

/**
 * `req` from the prepared body, a copy: the extension may keep or change it
 * without touching the session. A hook that broke the body's shape is a
 * request error naming the field.
 */
function readRequest(request: PreparedRequest, label: string): Omit<ProviderRequest, 'apiKey' | 'baseUrl' | 'headers'> {
	const {model, messages, tools, max_tokens: maxTokens, ...extra} = request.body;
	const bad = (field: string, want: string) => new ProviderError(`${label}: the request body's "${field}" is not ${want} (a request hook changed it?)`, {kind: 'request'});
	if (typeof model !== 'string' || model === '') throw bad('model', 'a model name');
	if (!Array.isArray(messages)) throw bad('messages', 'a list of messages');
	if (!Array.isArray(tools)) throw bad('tools', 'a list of tools');
	if (maxTokens !== undefined && (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens <= 0)) throw bad('max_tokens', 'a positive integer');
	try {
		return structuredClone({model, messages, tools, maxTokens: maxTokens ?? null, extra}) as Omit<ProviderRequest, 'apiKey' | 'baseUrl' | 'headers'>;
	} catch (error) {
		throw new ProviderError(`${label}: the request cannot be copied (${(error as Error).message})`, {kind: 'request'});
	}
}
