// Issue 6's web benchmark: web_fetch of a 1 MB local HTML page through a
// resident web worker (spoken to in NDJSON frames, as the pool does), time
// per call as the median of RUNS calls and the worker's peak resident
// memory (VmHWM), against a baseline measured in the same run: a plain
// node:http GET of the same page, its time in this process and its peak
// memory in a bare node process doing the same GETs.
import {spawn} from 'node:child_process';
import {readFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import {get} from 'node:http';
import {cpus, tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {FrameDecoder} from '../source/core/pool/frames.js';
import {page, startWebServer} from '../test/fixtures/web-server.js';
import {median, timeAsync} from './measure.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const cli = fileURLToPath(new URL('../bundle/cli.js', import.meta.url));
const PAGE_BYTES = 1024 * 1024;

/** A 1 MB page of ordinary article markup: headings, paragraphs with entities and links, lists, a script. */
function articlePage(): string {
	const parts = ['<!DOCTYPE html><html><head><title>Bench &amp; article</title><style>p{margin:0}</style><script>var x = "<p>no</p>";</script></head><body>'];
	let size = parts[0]!.length;
	for (let section = 0; size < PAGE_BYTES - 2048; section++) {
		const part = `<h2>Section ${section}</h2><p>Paragraph ${section} &mdash; text with <a href="/x/${section}">a link</a>, &lt;code&gt; and &#x4E2D;&#25991; characters.</p><ul><li>one ${section}</li><li>two</li></ul>\n`;
		parts.push(part);
		size += part.length;
	}

	const html = `${parts.join('')}</body></html>`;
	return html.padEnd(PAGE_BYTES, ' ');
}

/** Peak resident memory of a process, from /proc (Linux); undefined elsewhere. */
function peakKiB(pid: number): number | undefined {
	try {
		const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
		return match ? Number(match[1]) : undefined;
	} catch {
		return undefined;
	}
}

async function plainGet(url: string): Promise<number> {
	return new Promise((resolve, reject) => {
		get(url, response => {
			let bytes = 0;
			response.on('data', (chunk: Buffer) => (bytes += chunk.length));
			response.on('end', () => resolve(bytes));
			response.on('error', reject);
		}).on('error', reject);
	});
}

/** A bare node process doing RUNS plain GETs of the page and reporting its own VmHWM. */
async function baselinePeakKiB(url: string): Promise<number | undefined> {
	const script = `const http = require('node:http'); const fs = require('node:fs');
const once = () => new Promise((ok, fail) => http.get(process.argv[1], r => { const parts = []; r.on('data', c => parts.push(c)); r.on('end', () => ok(Buffer.concat(parts).toString('utf8').length)); r.on('error', fail); }).on('error', fail));
(async () => { for (let i = 0; i < ${RUNS}; i++) await once(); const m = /VmHWM:\\s+(\\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8')); process.stdout.write(m ? m[1] : ''); })();`;
	const child = spawn(process.execPath, ['-e', script, url], {stdio: ['ignore', 'pipe', 'inherit']});
	let out = '';
	child.stdout.setEncoding('utf8').on('data', chunk => (out += chunk));
	await new Promise(resolve => child.on('close', resolve));
	return out === '' ? undefined : Number(out);
}

export async function benchWebFetch(): Promise<void> {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-bench-web-')));
	const html = articlePage();
	const site = await startWebServer({'/article.html': page(html)});
	const url = `${site.origin}/article.html`;
	const config = join(root, 'config');
	mkdirSync(config);
	writeFileSync(join(config, 'web.json'), JSON.stringify({trusted_hosts: ['127.0.0.1']}));
	const worker = spawn(process.execPath, [cli, '--runtime', 'worker', 'web'], {
		env: {PATH: process.env.PATH, HOME: root, I_CONFIG_DIR: config, I_DATA_DIR: join(root, 'data'), I_CACHE_DIR: join(root, 'cache'), I_RUNTIME_DIR: join(root, 'runtime')},
		stdio: ['pipe', 'pipe', 'inherit'],
	});
	const decoder = new FrameDecoder();
	const waiting: Array<(frame: Record<string, any>) => void> = [];
	worker.stdout.on('data', (chunk: Buffer) => {
		for (const text of decoder.push(chunk)) waiting.shift()?.(JSON.parse(text) as Record<string, any>);
	});
	let id = 0;
	const fetchOnce = async () => {
		const answer = new Promise<Record<string, any>>(resolve => waiting.push(resolve));
		worker.stdin.write(`${JSON.stringify({id: ++id, event: 'tool', data: {name: 'web_fetch', arguments: {url}}})}\n`);
		const frame = await answer;
		if (typeof frame.data?.output !== 'string') throw new Error(`web_fetch failed in the benchmark: ${JSON.stringify(frame).slice(0, 300)}`);
		return frame.data.output as string;
	};

	try {
		// Warm up both paths once (module loading, JIT) before measuring.
		const output = await fetchOnce();
		await plainGet(url);
		const afterStart = peakKiB(worker.pid!);
		const fetchMs: number[] = [];
		const getMs: number[] = [];
		for (let run = 0; run < RUNS; run++) {
			fetchMs.push(await timeAsync(async () => void (await fetchOnce())));
			getMs.push(await timeAsync(async () => void (await plainGet(url))));
		}

		const workerPeak = peakKiB(worker.pid!);
		const basePeak = await baselinePeakKiB(url);
		const ratio = median(fetchMs) / median(getMs);
		const mib = (kib: number | undefined) => (kib === undefined ? 'n/a' : (kib / 1024).toFixed(1));
		console.log('');
		console.log(
			`web_fetch of a ${(Buffer.byteLength(html) / 2 ** 20).toFixed(2)} MiB local HTML page (${output.length} characters of output), ${RUNS} calls, medians; ${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, node ${process.version}`,
		);
		console.log('');
		console.log('| measure | median ms | × plain GET | peak RSS MiB |');
		console.log('|---|---:|---:|---:|');
		console.log(`| plain node:http GET (baseline) | ${median(getMs).toFixed(1)} | 1 | ${mib(basePeak)} (bare node process) |`);
		console.log(`| web_fetch through the web worker | ${median(fetchMs).toFixed(1)} | ${ratio.toFixed(2)}× | ${mib(workerPeak)} (worker; ${mib(afterStart)} after the first call) |`);
	} finally {
		worker.stdin.end();
		await new Promise(resolve => worker.on('close', resolve));
		await site.close();
		rmSync(root, {recursive: true, force: true});
	}
}
