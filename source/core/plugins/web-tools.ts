import type {ModuleTool} from './module-tool.js';

// The limits of spec/platform.md §9 for web access that the tools state, in one place; the web worker enforces them.

/** A page's body is read up to this many bytes (1 MB); the rest is dropped and the output says so. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** What one web_fetch returns to the model, notes included. */
export const MAX_OUTPUT_CHARS = 50_000;
/** The least `max_chars` may ask for. */
export const MIN_OUTPUT_CHARS = 200;
/** HTTP requests per tool call, redirects included. */
export const MAX_REQUESTS = 5;
/** The whole tool call (every DNS lookup, connection, redirect and body) within this. */
export const CLIENT_TIMEOUT_MS = 8000;
/** Results one web_search returns at most, and by default. */
export const MAX_SEARCH_RESULTS = 20;
export const DEFAULT_SEARCH_RESULTS = 5;
export const MAX_URL_CHARS = 8192;
export const MAX_QUERY_CHARS = 2000;

/** The web module's tools (spec/platform.md §9): the model-facing definitions only; the web worker does the work and checks the same limits. */
export const webTools: readonly ModuleTool[] = [
	{
		name: 'web_fetch',
		description: `Fetch one web page (http or https) and return it as readable text: HTML reduced to text (title first; no JavaScript is run), plain text and JSON as they are. Other content types are refused. Limits: ${MAX_BODY_BYTES / 1024 / 1024} MB of body, ${MAX_OUTPUT_CHARS} characters of output, ${MAX_REQUESTS} HTTP requests including redirects, ${CLIENT_TIMEOUT_MS / 1000} seconds. Private and local addresses are refused unless the user trusted them in web.json.`,
		parameters: {
			type: 'object',
			properties: {
				url: {type: 'string', minLength: 1, maxLength: MAX_URL_CHARS, description: 'The absolute http:// or https:// URL to fetch.'},
				max_chars: {
					type: 'integer',
					minimum: MIN_OUTPUT_CHARS,
					maximum: MAX_OUTPUT_CHARS,
					description: `Return at most this many characters (default and maximum ${MAX_OUTPUT_CHARS}).`,
				},
			},
			required: ['url'],
			additionalProperties: false,
		},
	},
	{
		name: 'web_search',
		description: 'Search the web through the search endpoint configured in web.json; returns numbered results with title, URL and snippet. Fails with a clear message when no search endpoint is configured.',
		parameters: {
			type: 'object',
			properties: {
				query: {type: 'string', minLength: 1, maxLength: MAX_QUERY_CHARS, description: 'What to search for.'},
				count: {type: 'integer', minimum: 1, maximum: MAX_SEARCH_RESULTS, description: `How many results (default ${DEFAULT_SEARCH_RESULTS}).`},
			},
			required: ['query'],
			additionalProperties: false,
		},
	},
];
