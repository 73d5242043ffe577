import * as z from 'zod/mini';
import '../../source/core/zod-english.js';
import {moduleConfigLoader} from '../serve/module-config-loader.js';
import type {WorkerContext, WorkerDefinition} from '../serve/serve.js';
import {createAddressPolicy} from './address-policy.js';
import {webConfigSchema, type WebConfig} from './config.js';
import {fetchPage} from './fetch-page.js';
import {createCallGuard} from './guarded-request.js';
import {DEFAULT_SEARCH_RESULTS, MAX_OUTPUT_CHARS, MAX_QUERY_CHARS, MAX_SEARCH_RESULTS, MAX_URL_CHARS, MIN_OUTPUT_CHARS} from '../../source/core/plugins/web-tools.js';
import {pageOutput} from './page-output.js';
import {createResolver} from './resolve.js';
import {readCredential, redact, search, type SearchResult} from './search.js';
import {parseWorkerOptions} from '../serve/worker-options.js';
import {parseToolArguments} from '../serve/hook-data.js';
import {joinWithinLimit, plural} from '../../source/core/tools/format.js';

// The checks the tools' parameters state (source/core/plugins/web-tools.ts), with the same limits.
const fetchArgs = z.strictObject({
	url: z.string().check(z.minLength(1), z.maxLength(MAX_URL_CHARS)),
	max_chars: z.optional(z.int().check(z.minimum(MIN_OUTPUT_CHARS), z.maximum(MAX_OUTPUT_CHARS))),
});

const searchArgs = z.strictObject({
	query: z.string().check(z.minLength(1), z.maxLength(MAX_QUERY_CHARS)),
	count: z.optional(z.int().check(z.minimum(1), z.maximum(MAX_SEARCH_RESULTS))),
});

/**
 * `i --runtime worker web [--config FILE]`: the web tools (spec/platform.md §9).
 * `web_fetch` reads one page as text, `web_search` asks the endpoint
 * configured in web.json. Both go through one guard per call: public
 * addresses only unless web.json trusts them, checked after DNS and on
 * each redirect, 5 requests, 8 s, no proxy.
 */
export function createWorker(args: string[]): WorkerDefinition {
	const options = parseWorkerOptions('web', args);
	const config = moduleConfigLoader('web', webConfigSchema, options.config);
	return {
		name: 'web',
		tools: {
			async web_fetch(data, context) {
				const {url, max_chars: maxChars} = parseToolArguments('web_fetch', fetchArgs, data);
				const guard = await guardFor(context);
				const page = await fetchPage(url, guard);
				return {output: pageOutput(page, maxChars ?? MAX_OUTPUT_CHARS)};
			},

			async web_search(data, context) {
				const {query, count} = parseToolArguments('web_search', searchArgs, data);
				const loaded = await config(context);
				const settings = loaded.config.search;
				if (!settings) throw new Error(`web search is not configured: add a "search" section to ${loaded.path} (see config/examples/web.config.json)`);
				const credential = settings.credentials_file === undefined ? undefined : await readCredential(loaded.path, settings.credentials_file);
				const results = await search(settings, query, count ?? DEFAULT_SEARCH_RESULTS, credential, guardOf(loaded.config));
				const output = formatResults(query, results);
				return {output: credential === undefined ? output : redact(output, credential)};
			},
		},
	};

	async function guardFor(context: WorkerContext) {
		return guardOf((await config(context)).config);
	}
}

function guardOf(settings: WebConfig) {
	const policy = createAddressPolicy({hosts: settings.trusted_hosts, networks: settings.trusted_networks});
	return createCallGuard(policy, createResolver(settings.hosts));
}

function formatResults(query: string, results: SearchResult[]): string {
	if (results.length === 0) return `No results for ${JSON.stringify(query)}.`;
	const head = `Results for ${JSON.stringify(query)}:\n\n`;
	// Each result after the first starts with the blank line that parts it from the one before.
	const blocks = results.map((result, index) => [...(index > 0 ? [''] : []), `${index + 1}. ${result.title || result.url}`, `   ${result.url}`, ...(result.snippet ? [`   ${result.snippet}`] : [])].join('\n'));
	const note = (omitted: number) => `\n\n[${plural(omitted, 'more result')} left out: the output is limited to ${MAX_OUTPUT_CHARS} characters]`;
	const whole = joinWithinLimit(blocks, MAX_OUTPUT_CHARS - head.length);
	if (whole.omitted === 0) return head + whole.text;
	// Whole results only, and room for the note that says how many are left out.
	const {text, omitted} = joinWithinLimit(blocks, MAX_OUTPUT_CHARS - head.length - note(results.length).length);
	return head + text + note(omitted);
}
