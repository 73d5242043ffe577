import type {ModuleTool} from './modules.js';

/** The web module's tools (seed §9): the model-facing definitions only; the web worker does the work and checks the same limits. */
export const webTools: readonly ModuleTool[] = [
	{
		name: 'web_fetch',
		description:
			'Fetch one web page (http or https) and return it as readable text: HTML reduced to text (title first; no JavaScript is run), plain text and JSON as they are. Other content types are refused. Limits: 1 MB of body, 50000 characters of output, 5 HTTP requests including redirects, 8 seconds. Private and local addresses are refused unless the user trusted them in web.json.',
		parameters: {
			type: 'object',
			properties: {
				url: {type: 'string', minLength: 1, maxLength: 8192, description: 'The absolute http:// or https:// URL to fetch.'},
				max_chars: {type: 'integer', minimum: 200, maximum: 50000, description: 'Return at most this many characters (default and maximum 50000).'},
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
				query: {type: 'string', minLength: 1, maxLength: 2000, description: 'What to search for.'},
				count: {type: 'integer', minimum: 1, maximum: 20, description: 'How many results (default 5).'},
			},
			required: ['query'],
			additionalProperties: false,
		},
	},
];
