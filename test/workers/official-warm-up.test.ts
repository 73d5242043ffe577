import {test} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {tmpdir} from 'node:os';
import {fileURLToPath} from 'node:url';
import {warmFdIo, warmUp} from '../../workers/host/official-warm-up.js';
import {page, startWebServer} from '../fixtures/web-server.js';
import {makeFolders, startWorker} from './frame-worker.js';
import {snapshotFlags} from '../../source/core/plugins/program.js';

const bin = fileURLToPath(new URL('../../../bin/i.js', import.meta.url));

test("the sample turn the host's snapshot is warmed with gets no error answer, and leaves no folder behind", async () => {
	const before = readdirSync(tmpdir()).filter(name => name.startsWith('i-host-warm-up-'));
	assert.deepEqual(await warmUp(), []);
	assert.deepEqual(
		readdirSync(tmpdir()).filter(name => name.startsWith('i-host-warm-up-')),
		before,
	);
});

test("the host's stdin and stdout code is warmed through two temp files: the frame read comes out whole, and no descriptor or folder is left", async () => {
	const folders = () => readdirSync(tmpdir()).filter(name => name.startsWith('i-host-fd-warm-up-'));
	const descriptors = () => (existsSync('/proc/self/fd') ? readdirSync('/proc/self/fd').length : 0);
	const [foldersBefore, descriptorsBefore] = [folders(), descriptors()];
	const written = await warmFdIo();
	assert.equal(written, '{"id":1,"data":{}}\n');
	assert.deepEqual(folders(), foldersBefore);
	assert.equal(descriptors(), descriptorsBefore);
});

test('hosts started from the snapshot draw fresh randomness: two of them never make the same cache record ID', async t => {
	const note = fileURLToPath(new URL('../../host/official.blob.json', import.meta.url));
	if (!existsSync(note)) {
		t.skip('this node built no start-up snapshot');
		return;
	}

	const folders = await makeFolders(t);
	const blob = fileURLToPath(new URL('../../host/official.blob', import.meta.url));
	const ids: string[] = [];
	for (let run = 0; run < 2; run++) {
		const host = startWorker(t, [process.execPath, ...snapshotFlags, '--snapshot-blob', blob, bin, '--runtime', 'worker', 'official'], {env: folders.env});
		const body = {model: 'm', messages: [{role: 'user', content: 'hi'}], stream: true};
		const answer = await host.request({
			id: 1,
			event: 'before_request',
			module: 'cache',
			workspace: folders.workspace,
			workspace_id: '2d3c6a52-5b0e-4f3b-9d1a-0a6f2b7c8e91',
			paths: folders.paths,
			data: {url: 'http://127.0.0.1:9/v1/chat/completions', body, protocol: 'openai', model: 'm'},
		});
		assert.equal(answer.error, undefined, answer.error);
		ids.push(answer.data.request_meta.cache.id);
		await host.close();
	}

	assert.match(ids[0]!, /^[0-9a-f-]{36}$/);
	assert.notEqual(ids[0], ids[1]);
});

test("a host from the snapshot, which holds neither node:http nor node's code cache of it, fetches a page for web at its first request", async t => {
	const blob = fileURLToPath(new URL('../../host/official.blob', import.meta.url));
	if (!existsSync(blob)) {
		t.skip('this node built no start-up snapshot');
		return;
	}

	const site = await startWebServer({'/': page('<title>Local</title><p>hello from the local page</p>')});
	t.after(() => site.close());
	const folders = await makeFolders(t);
	writeFileSync(join(folders.config, 'web.json'), JSON.stringify({trusted_hosts: ['127.0.0.1']}));
	const host = startWorker(t, [process.execPath, ...snapshotFlags, '--snapshot-blob', blob, bin, '--runtime', 'worker', 'official'], {env: folders.env});
	const answer = await host.request({id: 1, event: 'tool', module: 'web', workspace: folders.workspace, paths: folders.paths, data: {name: 'web_fetch', arguments: {url: `${site.origin}/`}}});
	assert.equal(answer.error, undefined, answer.error);
	assert.equal(answer.data.output, `URL: ${site.origin}/\nContent-Type: text/html; charset=utf-8\nTitle: Local\n\nhello from the local page`);
	await host.close();
});
