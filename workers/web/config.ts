import {isIP} from 'node:net';
import * as z from 'zod/mini';
import '../../source/core/zod-english.js';
import {parseNetwork} from './address-policy.js';

const hostName = z.string().check(
	z.minLength(1),
	z.maxLength(253),
	z.refine(value => !/[\s/@]/.test(value), 'must be a host name or an IP address, without scheme, port or path'),
);

const ipAddress = z.string().check(z.refine(value => isIP(value) !== 0, 'must be an IPv4 or IPv6 address'));

const network = z.string().check(z.refine(value => parseNetwork(value) !== undefined, 'must be an address or a CIDR network such as "10.0.0.0/8" or "fd00::/8"'));

const httpUrl = z.string().check(z.refine(value => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), 'must be an http:// or https:// URL'));

const headerName = z.string().check(z.regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be an HTTP header name'));
const headerValue = z.string().check(z.refine(value => !/[\r\n\0]/.test(value), 'must not contain line breaks'));

/** A dotted path into JSON: "web.results", "0.title"; "" is the value itself. */
const jsonPath = z.string().check(z.maxLength(200));

/** `search` in web.json: one configurable endpoint (spec/platform.md §9). */
export const searchConfigSchema = z.strictObject({
	method: z._default(z.enum(['GET', 'POST']), 'GET'),
	url: httpUrl,
	/** GET: the query-string parameter; POST: the JSON body field. */
	query_param: z._default(z.string().check(z.minLength(1)), 'q'),
	/** Where the wanted number of results goes, if the endpoint takes one. */
	count_param: z.optional(z.string().check(z.minLength(1))),
	extra_params: z._default(z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])), {}),
	headers: z._default(z.record(headerName, headerValue), {}),
	/** A file holding the key, relative to web.json; read per call, never shown. */
	credentials_file: z.optional(z.string().check(z.minLength(1))),
	credentials_header: z._default(headerName, 'Authorization'),
	/** Put before the key in the header: "Bearer ". */
	credentials_prefix: z._default(headerValue, ''),
	/** Where the array of results is in the JSON answer. */
	results_path: z._default(jsonPath, ''),
	/** Paths inside one result. */
	fields: z._default(
		z.strictObject({
			title: z._default(jsonPath, 'title'),
			url: z._default(jsonPath, 'url'),
			snippet: z._default(jsonPath, 'snippet'),
		}),
		{title: 'title', url: 'url', snippet: 'snippet'},
	),
});

/** `web.json` (spec/platform.md §4, §9). Private addresses are refused unless trusted here. */
export const webConfigSchema = z.strictObject({
	/** Host names or IP literals, as written in a URL, whose addresses may be private. */
	trusted_hosts: z._default(z.array(hostName), []),
	/** Networks any host may resolve into: "10.0.0.0/8", "127.0.0.1" (one address). */
	trusted_networks: z._default(z.array(network), []),
	/** Static name → addresses entries, used before DNS (like /etc/hosts for this module). */
	hosts: z._default(z.record(hostName, z.array(ipAddress).check(z.minLength(1))), {}),
	search: z.optional(searchConfigSchema),
});

export type WebConfig = z.infer<typeof webConfigSchema>;
export type SearchConfig = z.infer<typeof searchConfigSchema>;
