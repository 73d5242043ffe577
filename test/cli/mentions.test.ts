import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

function sandbox(protocol: 'openai' | 'anthropic' = 'openai') {
	const box = makeSandbox();
	box.writeConfig({protocol, base_url: mock.baseUrl(protocol), model: 'mock-model', max_retries: 0});
	return box;
}

function lastUser(body: any): any {
	return [...body.messages].reverse().find((message: any) => message.role === 'user');
}

test('-p "look at @a.txt": the request carries the text and the file under its path', async () => {
	const box = sandbox();
	writeFileSync(join(box.workspace, 'a.txt'), 'the contents of a\n');
	mock.enqueue({text: 'seen'});
	const before = mock.requests.length;
	const run = await runCli(['-p', 'look at @a.txt', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'seen\n');
	assert.deepEqual(lastUser(mock.requests[before]!.body).content, [
		{type: 'text', text: 'look at @a.txt'},
		{type: 'text', text: '==> a.txt <==\nthe contents of a\n'},
	]);
});

test('-p "@image.png": the request carries an image part (openai and anthropic)', async () => {
	for (const protocol of ['openai', 'anthropic'] as const) {
		const box = sandbox(protocol);
		mkdirSync(join(box.workspace, 'img'));
		writeFileSync(join(box.workspace, 'img', 'image.png'), PNG);
		mock.enqueue({text: 'a picture'});
		const before = mock.requests.length;
		const run = await runCli(['-p', 'what is in @img/image.png?', '-C', box.workspace], {env: box.env});
		assert.equal(run.code, 0, run.stderr);
		const content = lastUser(mock.requests[before]!.body).content;
		const data = PNG.toString('base64');
		if (protocol === 'openai') {
			assert.deepEqual(content.at(-1), {type: 'image_url', image_url: {url: `data:image/png;base64,${data}`}});
		} else {
			assert.deepEqual(content.at(-1), {type: 'image', source: {type: 'base64', media_type: 'image/png', data}});
		}

		assert.equal(content[0].text, 'what is in @img/image.png?');
	}
});

test('-p with a mention past a limit is not sent: exit 2 and why', async () => {
	const box = sandbox();
	for (let index = 1; index <= 9; index++) writeFileSync(join(box.workspace, `${index}.png`), PNG);
	const before = mock.requests.length;
	const prompt = Array.from({length: 9}, (_, index) => `@${index + 1}.png`).join(' ');
	const run = await runCli(['-p', prompt, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 2);
	assert.match(run.stderr, /more than 8 images/);
	assert.equal(mock.requests.length, before);
});

test('-p warns of a file not attached and still sends the message', async () => {
	const box = sandbox();
	writeFileSync(join(box.workspace, 'blob.bin'), Buffer.from([0, 1, 2]));
	mock.enqueue({text: 'ok'});
	const before = mock.requests.length;
	const run = await runCli(['-p', 'what is @blob.bin or me@example.com', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stderr, /i: warning: @blob\.bin is a binary file/);
	assert.equal(lastUser(mock.requests[before]!.body).content, 'what is @blob.bin or me@example.com');
});

test('-p "!ls" is a usage error; "\\!ls" is sent as text', async () => {
	const box = sandbox();
	const before = mock.requests.length;
	const refused = await runCli(['-p', '!ls', '-C', box.workspace], {env: box.env});
	assert.equal(refused.code, 2);
	assert.match(refused.stderr, /i -p does not run ! commands/);
	assert.equal(mock.requests.length, before);
	mock.enqueue({text: 'ok'});
	const sent = await runCli(['-p', '\\!important: be brief', '-C', box.workspace], {env: box.env});
	assert.equal(sent.code, 0, sent.stderr);
	assert.equal(lastUser(mock.requests[before]!.body).content, '!important: be brief');
});

test('line mode attaches mentions on each line too', async () => {
	const box = sandbox();
	writeFileSync(join(box.workspace, 'b.txt'), 'bee\n');
	mock.enqueue({text: 'one'}, {text: 'two'});
	const before = mock.requests.length;
	const run = await runCli(['-C', box.workspace], {env: box.env, input: 'first line\nsee @b.txt\n'});
	assert.equal(run.code, 0, run.stderr);
	const second = mock.requests[before + 1]!.body;
	assert.deepEqual(lastUser(second).content, [
		{type: 'text', text: 'see @b.txt'},
		{type: 'text', text: '==> b.txt <==\nbee\n'},
	]);
});

test('an Input handler sees the typed text of a message with attachments and replaces it; the attachment stays', async () => {
	const box = sandbox();
	writeFileSync(join(box.workspace, 'a.txt'), 'alpha\n');
	const extension = join(box.root, 'shout.mjs');
	const log = join(box.root, 'input.log');
	writeFileSync(
		extension,
		`import {appendFileSync} from 'node:fs';
		export default api => api.registerEventHandler('Input', event => { appendFileSync(${JSON.stringify(log)}, JSON.stringify(event) + '\\n'); return {text: event.text.toUpperCase()}; });`,
	);
	mock.enqueue({text: 'ok'});
	const before = mock.requests.length;
	const run = await runCli(['-p', 'look at @a.txt', '--extension', extension, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.deepEqual(JSON.parse(readFileSync(log, 'utf8')), {text: 'look at @a.txt'});
	assert.deepEqual(lastUser(mock.requests[before]!.body).content, [
		{type: 'text', text: 'LOOK AT @A.TXT'},
		{type: 'text', text: '==> a.txt <==\nalpha\n'},
	]);
});
