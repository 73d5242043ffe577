/**
 * The proxy for model calls, from the environment: `HTTPS_PROXY` for
 * https:// endpoints (the `HTTP_PROXY` one when it is not set), `HTTP_PROXY`
 * for http://, `NO_PROXY` for the hosts that go direct; each lower-case form
 * wins over its upper-case one, as in curl and undici. The decision which
 * requests are proxied is undici's (`EnvHttpProxyAgent`, given exactly these
 * values); `proxyFor` repeats its `NO_PROXY` rule only so that an error can
 * name the proxy a request went through.
 */

export interface ProxyChoice {
	/** As configured, credentials included: for the dispatcher only. */
	url: string;
	/** Scheme, host and port: what messages show (never the credentials). */
	shown: string;
	/** The environment variable it came from: "HTTPS_PROXY". */
	variable: string;
}

export interface ProxySettings {
	http: ProxyChoice | undefined;
	https: ProxyChoice | undefined;
	/** The raw `NO_PROXY` list (commas or spaces between entries). */
	noProxy: string;
}

/** Proxies spoken to in HTTP. (undici's SOCKS5 support is experimental and says so on stderr at each start.) */
const PROXY_SCHEMES = new Set(['http:', 'https:']);

const DEFAULT_PORTS: Record<string, number> = {'http:': 80, 'https:': 443};

/** A proxy variable that is set but is no proxy URL: the turn fails with this, naming the variable. */
export class ProxyConfigError extends Error {
	override name = 'ProxyConfigError';
}

/** The proxy settings, or undefined when no proxy variable is set (then requests go direct, without proxy machinery). */
export function readProxySettings(env: NodeJS.ProcessEnv): ProxySettings | undefined {
	const http = choose(env, 'http_proxy', 'HTTP_PROXY');
	const https = choose(env, 'https_proxy', 'HTTPS_PROXY') ?? http;
	if (!http && !https) return undefined;
	return {http, https, noProxy: env.no_proxy || env.NO_PROXY || ''};
}

function choose(env: NodeJS.ProcessEnv, lower: string, upper: string): ProxyChoice | undefined {
	const variable = env[lower] ? lower : env[upper] ? upper : undefined;
	if (!variable) return undefined;
	const raw = env[variable]!.trim();
	// curl's reading of a bare "proxy.corp:8080".
	const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		// The value is not echoed: it may hold a password.
		throw new ProxyConfigError(`${variable} is not a proxy URL (expected e.g. http://proxy.example:8080)`);
	}

	if (!PROXY_SCHEMES.has(parsed.protocol)) {
		throw new ProxyConfigError(`${variable} names a proxy of the unsupported scheme ${parsed.protocol.slice(0, -1)} (supported: http, https)`);
	}

	return {url, shown: `${parsed.protocol}//${parsed.host}`, variable};
}

/** The proxy a request to `target` goes through, or undefined when it goes direct. */
export function proxyFor(settings: ProxySettings, target: URL): ProxyChoice | undefined {
	const choice = target.protocol === 'https:' ? settings.https : settings.http;
	if (!choice || bypassed(settings.noProxy, target)) return undefined;
	return choice;
}

/** undici's `EnvHttpProxyAgent#shouldProxy`, negated (lib/dispatcher/env-http-proxy-agent.js, undici 7). */
function bypassed(noProxy: string, target: URL): boolean {
	const entries = noProxy
		.split(/[,\s]/)
		.filter(Boolean)
		.map(entry => {
			const withPort = /^(.+):(\d+)$/.exec(entry);
			return {hostname: (withPort ? withPort[1]! : entry).replace(/^\*?\./, '').toLowerCase(), port: withPort ? Number.parseInt(withPort[2]!, 10) : 0};
		});
	if (entries.length === 0) return false;
	if (noProxy === '*') return true;
	// The host without its port, brackets of an IPv6 address kept.
	const hostname = target.host.replace(/:\d*$/, '').toLowerCase();
	const port = Number.parseInt(target.port, 10) || DEFAULT_PORTS[target.protocol] || 0;
	return entries.some(entry => (!entry.port || entry.port === port) && (hostname === entry.hostname || hostname.endsWith(`.${entry.hostname}`)));
}
