import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {mkdir, symlink, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import {MAX_ATTACHED_FILES, MAX_ATTACHED_IMAGES, MAX_ATTACHED_TEXT_BYTES, MAX_IMAGE_BYTES, MAX_MENTIONS_CHECKED, describeAttachments, promptContent} from '../../source/core/mentions/attach-mentions.js';
import {attachmentsOf} from '../../source/core/mentions/attachment-parts.js';
import type {TextPart, UserContent} from '../../source/core/messages.js';
import {tempDir} from '../tools/helpers.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([4, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);

function texts(content: UserContent): string[] {
	assert.ok(Array.isArray(content));
	return content.flatMap(part => (part.type === 'text' ? [part.text] : []));
}

function ok(result: Awaited<ReturnType<typeof promptContent>>) {
	assert.ok(result.ok, result.ok ? '' : result.error);
	return result;
}

test('the limits: 64 KiB of text per file, 20 files, and spec/platform.md §5 for images', () => {
	assert.equal(MAX_ATTACHED_TEXT_BYTES, 64 * 1024);
	assert.equal(MAX_ATTACHED_FILES, 20);
	assert.equal(MAX_IMAGE_BYTES, 8 * 1024 * 1024);
	assert.equal(MAX_ATTACHED_IMAGES, 8);
});

test('a prompt without mentions stays the string it was', async t => {
	const dir = await tempDir(t);
	const result = ok(await promptContent('just words, me@example.com', dir));
	assert.equal(result.content, 'just words, me@example.com');
	assert.deepEqual(result.attachments, []);
});

test('a text file is attached after the message under its path', async t => {
	const dir = await tempDir(t);
	await mkdir(join(dir, 'src'));
	await writeFile(join(dir, 'src', 'a.ts'), 'export const a = 1;\n');
	const result = ok(await promptContent('look at @src/a.ts.', dir));
	assert.deepEqual(result.content, [
		{type: 'text', text: 'look at @src/a.ts.'},
		{type: 'text', text: '==> src/a.ts <==\nexport const a = 1;\n'},
	]);
	assert.deepEqual(result.attachments, [{path: 'src/a.ts', kind: 'text', bytes: 20}]);
	assert.deepEqual(attachmentsOf(result.content), {text: 'look at @src/a.ts.', attachments: result.attachments});
	assert.equal(describeAttachments(result.attachments), 'attached 1 file: src/a.ts (20 bytes)');
});

test('the same file mentioned twice is attached once; a quoted path with spaces works', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'my notes.txt'), 'n');
	const result = ok(await promptContent('@"my notes.txt" and again @"my notes.txt" and @./my\\ notes.txt', dir));
	assert.equal(result.attachments.length, 1);
	assert.equal(result.attachments[0]!.path, 'my notes.txt');
});

test('a mention that names nothing stays plain text, silently', async t => {
	const dir = await tempDir(t);
	const result = ok(await promptContent('npm i @types/node, then @nothing.txt', dir));
	assert.equal(result.content, 'npm i @types/node, then @nothing.txt');
	assert.deepEqual(result.notices, []);
});

test('a text file of exactly 64 KiB is whole; one byte more is cut at a line end with a note', async t => {
	const dir = await tempDir(t);
	const line = `${'x'.repeat(1023)}\n`;
	const exact = line.repeat(64);
	assert.equal(Buffer.byteLength(exact), MAX_ATTACHED_TEXT_BYTES);
	await writeFile(join(dir, 'exact.txt'), exact);
	await writeFile(join(dir, 'over.txt'), `${exact}y`);
	const whole = ok(await promptContent('@exact.txt', dir));
	assert.equal(texts(whole.content)[1], `==> exact.txt <==\n${exact}`);
	assert.deepEqual(whole.notices, []);

	// Over by one: the last full line within the limit ends the attachment.
	await writeFile(join(dir, 'over.txt'), `${exact.slice(0, -1)}yz`);
	const cut = ok(await promptContent('@over.txt', dir));
	const body = texts(cut.content)[1]!;
	assert.ok(body.startsWith(`==> over.txt <==\n${line.repeat(63)}\n[… cut: the first ${63 * 1024} of ${MAX_ATTACHED_TEXT_BYTES + 1} bytes are attached`), body.slice(-300));
	assert.match(body, /read the rest with the read tool from line 64\]$/);
	assert.deepEqual(cut.attachments, [{path: 'over.txt', kind: 'text', bytes: MAX_ATTACHED_TEXT_BYTES + 1, keptBytes: 63 * 1024}]);
	assert.deepEqual(attachmentsOf(cut.content).attachments, cut.attachments);
	assert.match(cut.notices[0]!, /@over\.txt is 64 KiB: its first 63 KiB are attached/);
});

test('one long line over the limit is cut at a character boundary', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'wide.txt'), '界'.repeat(30_000));
	const result = ok(await promptContent('@wide.txt', dir));
	const body = texts(result.content)[1]!.split('\n')[1]!;
	assert.ok(!body.includes('\uFFFD'));
	assert.equal(Buffer.byteLength(body), Math.floor(MAX_ATTACHED_TEXT_BYTES / 3) * 3);
});

test('images are told by their signature, not their name', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'shot.png'), PNG);
	await writeFile(join(dir, 'photo.dat'), JPEG);
	await writeFile(join(dir, 'anim.gif'), GIF);
	await writeFile(join(dir, 'pic.webp'), WEBP);
	await writeFile(join(dir, 'fake.png'), 'not an image at all');
	const result = ok(await promptContent('@shot.png @photo.dat @anim.gif @pic.webp @fake.png', dir));
	assert.deepEqual(
		result.attachments.map(item => [item.path, item.kind, item.mediaType]),
		[
			['shot.png', 'image', 'image/png'],
			['photo.dat', 'image', 'image/jpeg'],
			['anim.gif', 'image', 'image/gif'],
			['pic.webp', 'image', 'image/webp'],
			['fake.png', 'text', undefined],
		],
	);
	assert.ok(Array.isArray(result.content));
	const image = result.content.find(part => part.type === 'image_url');
	assert.deepEqual(image, {type: 'image_url', image_url: {url: `data:image/png;base64,${PNG.toString('base64')}`}});
	assert.equal((result.content[1] as TextPart).text, `==> shot.png <== (image/png, ${PNG.length} bytes)`);
	assert.deepEqual(attachmentsOf(result.content).attachments, result.attachments);
});

test('an image of exactly 8 MiB is attached; one byte more refuses the message', async t => {
	const dir = await tempDir(t);
	const exact = Buffer.alloc(MAX_IMAGE_BYTES);
	PNG.copy(exact);
	await writeFile(join(dir, 'exact.png'), exact);
	await writeFile(join(dir, 'over.png'), Buffer.concat([exact, Buffer.from([0])]));
	const attached = ok(await promptContent('@exact.png', dir));
	assert.equal(attached.attachments[0]!.bytes, MAX_IMAGE_BYTES);
	const refused = await promptContent('@over.png', dir);
	assert.equal(refused.ok, false);
	assert.match(refused.ok ? '' : refused.error, /@over\.png is 8 MiB \(8388609 bytes\), over the 8 MiB image limit: the message is not sent/);
});

test('8 images are attached; a ninth refuses the message', async t => {
	const dir = await tempDir(t);
	for (let index = 1; index <= 9; index++) await writeFile(join(dir, `${index}.png`), PNG);
	const eight = ok(await promptContent([1, 2, 3, 4, 5, 6, 7, 8].map(index => `@${index}.png`).join(' '), dir));
	assert.equal(eight.attachments.length, 8);
	const nine = await promptContent([1, 2, 3, 4, 5, 6, 7, 8, 9].map(index => `@${index}.png`).join(' '), dir);
	assert.equal(nine.ok, false);
	assert.match(nine.ok ? '' : nine.error, /more than 8 images/);
});

test('20 files are attached; a 21st refuses the message', async t => {
	const dir = await tempDir(t);
	for (let index = 1; index <= 21; index++) await writeFile(join(dir, `${index}.txt`), 't');
	const names = (count: number) => Array.from({length: count}, (_, index) => `@${index + 1}.txt`).join(' ');
	assert.equal(ok(await promptContent(names(20), dir)).attachments.length, 20);
	const over = await promptContent(names(21), dir);
	assert.equal(over.ok, false);
	assert.match(over.ok ? '' : over.error, /more than 20 files/);
});

test('paths out of the workspace are refused with a notice: .., absolute, and a symlink out', async t => {
	const outside = await tempDir(t);
	const dir = await tempDir(t);
	await writeFile(join(outside, 'secret.txt'), 'secret');
	await writeFile(join(outside, 'other.txt'), 'other');
	await symlink(join(outside, 'other.txt'), join(dir, 'link.txt'));
	const relative = `../${outside.split('/').at(-1)}/secret.txt`;
	const result = ok(await promptContent(`@${relative} @${join(outside, 'secret.txt')} @link.txt`, dir));
	assert.deepEqual(result.attachments, []);
	assert.equal(result.content, `@${relative} @${join(outside, 'secret.txt')} @link.txt`);
	// The first two are the same file: one notice; the link says where it leads.
	assert.equal(result.notices.length, 2);
	assert.match(result.notices[0]!, /is outside the workspace: not attached/);
	assert.match(result.notices[1]!, new RegExp(`@link\\.txt is outside the workspace \\(it leads to ${join(outside, 'other.txt')}\\)`));
});

test('a binary file that is no image, and a folder, are not attached, each with a notice', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'blob.bin'), Buffer.from([1, 2, 0, 3]));
	await mkdir(join(dir, 'src'));
	const result = ok(await promptContent('@blob.bin @src/', dir));
	assert.deepEqual(result.attachments, []);
	assert.match(result.notices[0]!, /@blob\.bin is a binary file .*not attached/);
	assert.match(result.notices[1]!, /@src\/ is a folder: not attached/);
});

test('an escaped \\@ is sent as a plain @ and attaches nothing', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'a.txt'), 'a');
	const result = ok(await promptContent('type \\@a.txt literally', dir));
	assert.equal(result.content, 'type @a.txt literally');
});

test('100 mentions are looked up; past that the rest stay plain text, with a notice', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'late.txt'), 'late');
	const words = Array.from({length: MAX_MENTIONS_CHECKED}, (_, index) => `@Decorator${index}`).join(' ');
	const within = ok(await promptContent(`${words.split(' ').slice(1).join(' ')} @late.txt`, dir));
	assert.equal(within.attachments.length, 1);
	assert.deepEqual(within.notices, []);
	const past = ok(await promptContent(`${words} @late.txt`, dir));
	assert.deepEqual(past.attachments, []);
	assert.match(past.notices[0]!, /the message has 101 @ words; only the first 100 were looked up/);
});

test('an unreadable file is not attached, with a notice; the message still goes', {skip: process.getuid?.() === 0 ? 'root reads any file' : false}, async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'locked.txt'), 'x', {mode: 0o000});
	const result = ok(await promptContent('@locked.txt', dir));
	assert.deepEqual(result.attachments, []);
	assert.match(result.notices[0]!, /@locked\.txt: permission denied: not attached/);
});

test('a FIFO is not read (it would block): not a regular file, with a notice', async t => {
	const dir = await tempDir(t);
	execFileSync('mkfifo', [join(dir, 'pipe')]);
	const result = ok(await promptContent('@pipe', dir));
	assert.deepEqual(result.attachments, []);
	assert.match(result.notices[0]!, /@pipe is not a regular file: not attached/);
});
