import {resolveFromConfig} from '../../source/core/config/module-config.js';
import {readConfigFile} from '../../source/core/fs/read-config-file.js';
import type {SearchConfig} from './config.js';
import {readCapped, sendGuarded, TimeoutError, type CallGuard} from './guarded-request.js';
import {MAX_BODY_BYTES, MAX_CREDENTIAL_BYTES} from './limits.js';

export interface SearchResult {
	title: string;
	url: string;
	snippet: string;
}

/**
 * The credential named by `search.credentials_file`, relative to web.json,
 * read for each call (so a rotated key is picked up). Its content never
 * appears in a message: errors name the file only.
 */
export async function readCredential(configPath: string, file: string): Promise<string> {
	const path = resolveFromConfig(configPath, file);
	const where = `the web search credentials file ${path} (search.credentials_file in ${configPath})`;
	const bytes = await readConfigFile(path, {label: where, maxBytes: MAX_CREDENTIAL_BYTES, tooBig: 'too big for a key file'});
	if (bytes === undefined) throw new Error(`cannot read ${where}: it does not exist; put the search API key in it`);
	const key = bytes.toString('utf8').trim();
	if (key === '') throw new Error(`${where} is empty; put the search API key in it`);
	if (/[\r\n\0]/.test(key)) throw new Error(`${where} must hold the key on one line`);
	return key;
}

/**
 * One query to the configured endpoint (spec/platform.md §9): GET with the query in the
 * query string, or POST with a JSON body; the answer's JSON is mapped
 * through `results_path` and `fields`. Redirects are not followed, so the
 * credential goes to the configured address only. Every message has the
 * credential cut out, in case a server echoes it.
 */
export async function search(config: SearchConfig, query: string, count: number, credential: string | undefined, guard: CallGuard): Promise<SearchResult[]> {
	try {
		return await searchOnce(config, query, count, credential, guard);
	} catch (error) {
		if (credential === undefined || error instanceof TimeoutError) throw error;
		throw new Error(redact((error as Error).message, credential));
	}
}

async function searchOnce(config: SearchConfig, query: string, count: number, credential: string | undefined, guard: CallGuard): Promise<SearchResult[]> {
	const params: Record<string, string | number | boolean> = {...config.extra_params, [config.query_param]: query};
	if (config.count_param !== undefined) params[config.count_param] = count;
	const url = new URL(config.url);
	const headers: Record<string, string> = {accept: 'application/json', 'accept-encoding': 'identity', 'user-agent': 'i-agent web_search', ...config.headers};
	if (credential !== undefined) headers[config.credentials_header] = `${config.credentials_prefix}${credential}`;
	let body: string | undefined;
	if (config.method === 'GET') {
		for (const [name, value] of Object.entries(params)) url.searchParams.set(name, String(value));
	} else {
		headers['content-type'] = 'application/json';
		body = JSON.stringify(params);
	}

	const response = await sendGuarded({url, method: config.method, headers, body}, guard);
	const status = response.statusCode ?? 0;
	const {bytes, truncated} = await readCapped(response, MAX_BODY_BYTES, guard.signal);
	const text = bytes.toString('utf8');
	if (status >= 300 && status < 400)
		throw new Error(`the search endpoint ${url.origin}${url.pathname} redirected (HTTP ${status}); redirects are not followed, so set search.url in web.json to the final address`);
	if (status < 200 || status >= 300) throw new Error(`the search endpoint ${url.origin}${url.pathname} answered HTTP ${status}: ${text.slice(0, 300)}`);
	if (truncated) throw new Error(`the search endpoint's answer is over ${MAX_BODY_BYTES} bytes`);
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		throw new Error(`the search endpoint's answer is not JSON: ${text.slice(0, 200)}`);
	}

	const list = at(json, config.results_path);
	if (!Array.isArray(list)) throw new Error(`the search answer has no array at "${config.results_path}" (search.results_path in web.json)`);
	const results: SearchResult[] = [];
	for (const item of list) {
		const url = at(item, config.fields.url);
		if (typeof url !== 'string' || url === '') continue;
		results.push({url, title: asText(at(item, config.fields.title)), snippet: asText(at(item, config.fields.snippet))});
		if (results.length === count) break;
	}

	return results;
}

/** The value at a dotted path ("web.results", "items.0"); "" is the value itself. */
function at(value: unknown, path: string): unknown {
	if (path === '') return value;
	let current = value;
	for (const key of path.split('.')) {
		if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined;
		current = (current as Record<string, unknown>)[key];
	}

	return current;
}

function asText(value: unknown): string {
	return typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : typeof value === 'number' ? String(value) : '';
}

export function redact(text: string, secret: string): string {
	return text.split(secret).join('[credential]');
}
