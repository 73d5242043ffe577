import {test, type TestContext} from 'node:test';
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {mkdirSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startWebServer, type Route, type WebServer} from '../fixtures/web-server.js';
import {makeFolders, startOfficialWorker, type Frame} from './frame-worker.js';

const KEY = 'sk-search-7f3a9c1e55d04b2b';

/** A search API that wants `Authorization: Bearer KEY` and echoes the key back in its error, as careless APIs do. */
function searchApi(answer: (query: string, count: unknown) => unknown): Route {
	return (request, response, body) => {
		if (request.headers.authorization !== `Bearer ${KEY}`) {
			response.writeHead(401, {'content-type': 'application/json'}).end(JSON.stringify({error: `bad key: ${String(request.headers.authorization)}`}));
			return;
		}

		const url = new URL(request.url ?? '/', 'http://x');
		const params = request.method === 'POST' ? (JSON.parse(body) as Record<string, unknown>) : Object.fromEntries(url.searchParams);
		response.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify(answer(String(params.query ?? params.q), params.n ?? params.count)));
	};
}

async function searchWorker(t: TestContext, search: Record<string, unknown>, key: string | null = KEY) {
	const folders = await makeFolders(t);
	mkdirSync(join(folders.config, 'secrets'));
	if (key !== null) writeFileSync(join(folders.config, 'secrets', 'search.key'), `${key}\n`);
	writeFileSync(join(folders.config, 'web.json'), JSON.stringify({trusted_hosts: ['127.0.0.1'], search}));
	const worker = startOfficialWorker(t, 'web', [], {env: folders.env});
	let id = 0;
	return {
		folders,
		worker,
		async search(args: Record<string, unknown>): Promise<Frame> {
			return worker.request({id: ++id, event: 'tool', data: {name: 'web_search', arguments: args}, paths: folders.paths});
		},
	};
}

async function server(t: TestContext, routes: Record<string, Route>): Promise<WebServer> {
	const started = await startWebServer(routes);
	t.after(() => started.close());
	return started;
}

test('web_search GET: query, count and extra parameters in the query string, the credential in its header, results mapped from the JSON', async t => {
	const api = await server(t, {
		'/search': searchApi((query, count) => ({
			web: {
				results: [
					{title: `About ${query}`, url: 'https://a.example/', description: 'first  hit', other: 1},
					{title: 'No URL here', description: 'skipped'},
					{title: 'Second', url: 'https://b.example/', description: `count was ${String(count)}`},
					{title: 'Third', url: 'https://c.example/'},
				],
			},
		})),
	});
	const web = await searchWorker(t, {
		method: 'GET',
		url: `${api.origin}/search?fixed=1`,
		query_param: 'q',
		count_param: 'count',
		extra_params: {safe: 'strict'},
		headers: {'X-Client': 'i'},
		credentials_file: 'secrets/search.key',
		credentials_header: 'Authorization',
		credentials_prefix: 'Bearer ',
		results_path: 'web.results',
		fields: {title: 'title', url: 'url', snippet: 'description'},
	});
	const found = await web.search({query: 'tide tables', count: 2});
	assert.equal(found.data.output, 'Results for "tide tables":\n\n1. About tide tables\n   https://a.example/\n   first hit\n\n2. Second\n   https://b.example/\n   count was 2');
	const hit = api.hits[0]!;
	assert.equal(hit.method, 'GET');
	assert.equal(hit.path, '/search?fixed=1&safe=strict&q=tide+tables&count=2');
	assert.equal(hit.headers['x-client'], 'i');
	assert.equal((await web.search({query: 'nothing matches'})).data.output.includes('Results for'), true);
	const closed = await web.worker.close();
	assert.ok(!closed.stderr.includes(KEY), 'the key is never logged');
});

test('web_search POST: a JSON body with the mapped fields; an array at the root', async t => {
	const api = await server(t, {'/v1/query': searchApi(query => [{name: query, link: 'https://x.example/', text: {body: 'nested'}}])});
	const web = await searchWorker(t, {
		method: 'POST',
		url: `${api.origin}/v1/query`,
		query_param: 'query',
		count_param: 'n',
		extra_params: {lang: 'en', fresh: true},
		credentials_file: 'secrets/search.key',
		credentials_prefix: 'Bearer ',
		results_path: '',
		fields: {title: 'name', url: 'link', snippet: 'text.body'},
	});
	const found = await web.search({query: 'posted'});
	assert.equal(found.data.output, 'Results for "posted":\n\n1. posted\n   https://x.example/\n   nested');
	assert.equal(api.hits[0]!.method, 'POST');
	assert.deepEqual(JSON.parse(api.hits[0]!.body), {lang: 'en', fresh: true, query: 'posted', n: 5});
	assert.equal(api.hits[0]!.headers['content-type'], 'application/json');
});

test('credentials: a missing file is a clear error sent nowhere; a wrong key never shows, not even when the server echoes it', async t => {
	const api = await server(t, {'/search': searchApi(() => ({results: []}))});
	const config = {url: `${api.origin}/search`, credentials_file: 'secrets/search.key', credentials_prefix: 'Bearer ', results_path: 'results'};
	const missing = await searchWorker(t, config, null);
	const error = (await missing.search({query: 'q'})).error as string;
	assert.equal(
		error,
		`cannot read the web search credentials file ${join(missing.folders.config, 'secrets', 'search.key')} (search.credentials_file in ${join(missing.folders.config, 'web.json')}): it does not exist; put the search API key in it`,
	);
	assert.equal(api.hits.length, 0, 'no request without the credential');

	const wrongKey = 'sk-wrong-key-0000111122223333';
	const wrong = await searchWorker(t, config, wrongKey);
	const refused = (await wrong.search({query: 'q'})).error as string;
	assert.match(refused, /^the search endpoint http:\/\/127\.0\.0\.1:\d+\/search answered HTTP 401: \{"error":"bad key: Bearer \[credential\]"\}$/);
	assert.ok(!refused.includes(wrongKey));
	assert.equal(api.hits.at(-1)!.headers.authorization, `Bearer ${wrongKey}`, 'the key did go to the endpoint, in its header');

	const right = await searchWorker(t, config);
	assert.equal((await right.search({query: KEY})).data.output, 'No results for "[credential]".', 'not even a query that holds the key');
	for (const worker of [missing, wrong, right]) assert.ok(!(await worker.worker.close()).stderr.includes(KEY));
});

test('web_search goes through the address policy, needs a search section, and reports a bad answer', async t => {
	const api = await server(t, {'/search': (_request, response) => response.writeHead(200, {'content-type': 'application/json'}).end('{"items": {}}')});
	const folders = await makeFolders(t);
	writeFileSync(join(folders.config, 'web.json'), JSON.stringify({search: {url: `${api.origin}/search`}}));
	const worker = startOfficialWorker(t, 'web', [], {env: folders.env});
	const refused = await worker.request({id: 1, event: 'tool', data: {name: 'web_search', arguments: {query: 'q'}}});
	assert.match(refused.error, /^refused to connect to 127\.0\.0\.1: not a public address \(loopback\)/);
	assert.equal(api.hits.length, 0);

	const unconfigured = await searchWorkerWithout(t);
	assert.match(unconfigured.error, /^web search is not configured: add a "search" section to .*web\.json \(see config\/examples\/web\.config\.json\)$/);

	const shapeless = await searchWorker(t, {url: `${api.origin}/search`, results_path: 'items'});
	assert.equal((await shapeless.search({query: 'q'})).error, 'the search answer has no array at "items" (search.results_path in web.json)');
});

async function searchWorkerWithout(t: TestContext): Promise<Frame> {
	const folders = await makeFolders(t);
	const worker = startOfficialWorker(t, 'web', [], {env: folders.env});
	return worker.request({id: 1, event: 'tool', data: {name: 'web_search', arguments: {query: 'q'}}});
}

test('web_search: a redirect from the endpoint is refused, so the credential never goes anywhere else; count is 1–20', async t => {
	const api = await server(t, {
		'/search': (_request, response) => response.writeHead(302, {location: '/elsewhere'}).end(),
		'/elsewhere': searchApi(() => ({results: []})),
		'/list': searchApi((_query, count) => ({results: Array.from({length: Number(count)}, (_, index) => ({title: `r${index}`, url: `https://r${index}.example/`}))})),
	});
	const config = {credentials_file: 'secrets/search.key', credentials_prefix: 'Bearer ', results_path: 'results'};
	const moved = await searchWorker(t, {...config, url: `${api.origin}/search`});
	assert.equal((await moved.search({query: 'q'})).error, `the search endpoint ${api.origin}/search redirected (HTTP 302); redirects are not followed, so set search.url in web.json to the final address`);
	assert.deepEqual(
		api.hits.map(hit => hit.path),
		['/search?q=q'],
		'the redirect target was never asked',
	);

	const web = await searchWorker(t, {...config, url: `${api.origin}/list`, count_param: 'count'});
	const twenty = (await web.search({query: 'q', count: 20})).data.output as string;
	assert.match(twenty, /\n20\. r19\n/);
	assert.match((await web.search({query: 'q', count: 21})).error, /^web_search arguments: .*count/);
	assert.match((await web.search({query: 'q', count: 0})).error, /^web_search arguments: .*count/);
});

test('web_search: the credentials file must be one line of at most 16 KiB in a regular file', async t => {
	const api = await server(t, {'/search': searchApi(() => ({results: []}))});
	const web = await searchWorker(t, {url: `${api.origin}/search`, credentials_file: 'secrets/search.key', credentials_prefix: 'Bearer ', results_path: 'results'});
	const file = join(web.folders.config, 'secrets', 'search.key');
	const where = `the web search credentials file ${file} (search.credentials_file in ${join(web.folders.config, 'web.json')})`;
	writeFileSync(file, `${KEY}${' '.repeat(16 * 1024 - KEY.length)}`);
	assert.equal((await web.search({query: 'q'})).data.output, 'No results for "q".', 'exactly 16 KiB (trailing space trimmed)');
	writeFileSync(file, `${KEY}${' '.repeat(16 * 1024 - KEY.length + 1)}`);
	assert.equal((await web.search({query: 'q'})).error, `${where}: the file is over ${16 * 1024} bytes, too big for a key file`);
	writeFileSync(file, ' \n');
	assert.equal((await web.search({query: 'q'})).error, `${where} is empty; put the search API key in it`);
	writeFileSync(file, `${KEY}\nsecond line\n`);
	assert.equal((await web.search({query: 'q'})).error, `${where} must hold the key on one line`);
	rmSync(file);
	execFileSync('mkfifo', [file]);
	assert.equal((await web.search({query: 'q'})).error, `${where} is a FIFO (named pipe), not a regular file; only regular files are read`, 'a FIFO is refused, never waited on');
	assert.equal(api.hits.length, 1, 'only the good key was ever sent');
});

test('web_search output stays within 50000 characters: whole results only, and a note says how many were left out', async t => {
	const snippet = 'z'.repeat(3000);
	const api = await server(t, {'/search': searchApi(() => ({results: Array.from({length: 20}, (_, index) => ({title: `r${index}`, url: `https://r${index}.example/`, snippet}))}))});
	const web = await searchWorker(t, {
		url: `${api.origin}/search`,
		credentials_file: 'secrets/search.key',
		credentials_prefix: 'Bearer ',
		results_path: 'results',
		fields: {title: 'title', url: 'url', snippet: 'snippet'},
	});
	const output = (await web.search({query: 'q', count: 20})).data.output as string;
	assert.ok(output.length <= 50_000, `${output.length} characters`);
	const shown = output.match(/^\d+\. r\d+$/gm)!.length;
	assert.ok(shown > 10 && shown < 20, `${shown} results shown`);
	assert.ok(output.endsWith(`\n   ${snippet}\n\n[${20 - shown} more results left out: the output is limited to 50000 characters]`), output.slice(-200));
});
