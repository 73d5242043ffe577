/**
 * The headers of one model request, and what a caller's hook (the
 * extensions' `BeforeProviderHeaders`, spec/extensions.md §5) may see and change
 * of them. Credentials are never shown and never set by the hook; the
 * HTTP layer's own headers keep the host's values. The rules live here,
 * beside the request, so the hook's reader and the sender apply the same
 * ones and the sender enforces them whatever the hook returns.
 */

/** What the hook is given and answers: every header but credentials, names in lower case. */
export type HeadersHook = (request: {url: string; headers: Record<string, string>}) => Promise<Record<string, string>>;

/** The wire every built-in protocol speaks: a JSON body, a server-sent event stream back. */
export const STREAM_REQUEST_HEADERS: Readonly<Record<string, string>> = Object.freeze({'content-type': 'application/json', accept: 'text/event-stream'});

/** Headers that authenticate (the API key, a proxy's credentials, cookies): never shown to a hook, never taken from one. */
const credentialHeaders = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'api-key', 'cookie', 'set-cookie']);

/** Headers the HTTP layer owns: the framing of the request (undici refuses some outright) and the wire the reply is read in. */
const hostHeaders = new Set(['content-type', 'accept', 'host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'proxy-connection', 'upgrade', 'expect', 'te', 'trailer']);

/** Why a hook may not set this header, or undefined when it may. `name` in lower case. */
export function headerRefusal(name: string): 'credential' | 'host' | undefined {
	if (credentialHeaders.has(name)) return 'credential';
	if (hostHeaders.has(name)) return 'host';
	return undefined;
}

function lowerCased(headers: Readonly<Record<string, string>>): Record<string, string> {
	return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

/**
 * The headers a request carries: the wire's, then the adapter's own
 * (authentication, protocol version). With a hook, it sees all but the
 * credentials and the `secret` ones (models.json's, which are secrets
 * like keys) and answers the new set; from its answer only headers it may
 * set are taken, the host's own keep their values, and the credentials
 * and secrets are added back unseen.
 */
export async function requestHeaders(own: Readonly<Record<string, string>>, url: string, hook: HeadersHook | undefined, secret: readonly string[] = []): Promise<Record<string, string>> {
	const all = {...STREAM_REQUEST_HEADERS, ...lowerCased(own)};
	if (!hook) return all;
	const secrets = new Set(secret.map(name => name.toLowerCase()));
	const visible: Record<string, string> = {};
	const kept: Record<string, string> = {};
	for (const [name, value] of Object.entries(all)) {
		const refusal = secrets.has(name) ? 'credential' : headerRefusal(name);
		if (refusal !== 'credential') visible[name] = value;
		if (refusal !== undefined) kept[name] = value;
	}

	const answered = lowerCased(await hook({url, headers: visible}));
	const taken = Object.fromEntries(Object.entries(answered).filter(([name, value]) => headerRefusal(name) === undefined && typeof value === 'string'));
	return {...taken, ...kept};
}
