// stdin and stdout of a worker on their file descriptors (workers/serve/fd-io.ts):
// chunks and EOF, pause, and the hand-over to a stream when a descriptor is
// non-blocking (a FIFO opened O_NONBLOCK here), with nothing lost.
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {closeSync, constants, mkdtempSync, openSync, readSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {PassThrough, Writable} from 'node:stream';
import {test} from 'node:test';
import {setTimeout as sleep} from 'node:timers/promises';
import {FdInput, FdOutput} from '../../workers/serve/fd-io.js';

function folder(t: {after(fn: () => void): void}): string {
	const root = mkdtempSync(join(tmpdir(), 'i-fd-io-'));
	t.after(() => rmSync(root, {recursive: true, force: true}));
	return root;
}

test('FdInput gives a file’s bytes as chunks, none while paused, then end', async t => {
	const path = join(folder(t), 'frames');
	const bytes = Buffer.from(`${'x'.repeat(150_000)}\n`);
	writeFileSync(path, bytes);
	const fd = openSync(path, 'r');
	t.after(() => closeSync(fd));
	const input = new FdInput(fd, () => assert.fail('a file never needs the stream'));
	const chunks: Buffer[] = [];
	let ended = false;
	input.on('data', (chunk: Buffer) => {
		chunks.push(chunk);
		input.pause();
	});
	input.once('end', () => (ended = true));
	await sleep(50);
	assert.equal(chunks.length, 1, 'paused after the first chunk');
	while (!ended) {
		input.resume();
		await sleep(5);
	}

	assert.deepEqual(Buffer.concat(chunks), bytes);
});

test('a non-blocking descriptor is handed to the stream at the first EAGAIN: reading goes on from it, writing sends it the rest', async t => {
	const fifo = join(folder(t), 'fifo');
	execFileSync('mkfifo', [fifo]);
	const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
	const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
	t.after(() => {
		closeSync(reader);
		closeSync(writer);
	});

	// Reading: nothing in the FIFO yet, so the first read would block.
	const stream = new PassThrough();
	let handedOver = 0;
	const input = new FdInput(reader, () => {
		handedOver++;
		return stream;
	});
	const read: Buffer[] = [];
	input.on('data', (chunk: Buffer) => read.push(chunk));
	const ended = new Promise<void>(resolve => input.once('end', resolve));
	await sleep(50);
	assert.equal(handedOver, 1);
	stream.end('{"id":1}\n');
	await ended;
	assert.equal(Buffer.concat(read).toString(), '{"id":1}\n');

	// Writing: a frame bigger than the FIFO holds; what the descriptor took plus what the stream got is the frame, in order.
	const frame = Buffer.alloc(300_000, 'y');
	const rest: Buffer[] = [];
	const collect = new Writable({
		write(chunk: Buffer, _encoding, done) {
			rest.push(chunk);
			done();
		},
	});
	const output = new FdOutput(writer, () => collect);
	await new Promise<void>((resolve, reject) => output.write(frame, error => (error ? reject(error) : resolve())));
	const taken = Buffer.alloc(frame.length);
	let inFifo = 0;
	for (;;) {
		try {
			const got = readSync(reader, taken, inFifo, taken.length - inFifo, null);
			if (got === 0) break;
			inFifo += got;
		} catch {
			break;
		}
	}

	assert.ok(inFifo > 0 && inFifo < frame.length, `the FIFO took part of it (${inFifo} bytes)`);
	assert.deepEqual(Buffer.concat([taken.subarray(0, inFifo), ...rest]), frame);
	// From then on every frame goes to the stream, after the rest: the order holds.
	await new Promise<void>((resolve, reject) => output.write(Buffer.from('next\n'), error => (error ? reject(error) : resolve())));
	assert.equal(rest.at(-1)?.toString(), 'next\n');
});

test('a write to a closed reader fails with its error, not a crash', async t => {
	const fifo = join(folder(t), 'fifo');
	execFileSync('mkfifo', [fifo]);
	const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
	const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
	t.after(() => closeSync(writer));
	closeSync(reader);
	const output = new FdOutput(writer, () => assert.fail('EPIPE is no reason to hand over'));
	const error = await new Promise<Error | null | undefined>(resolve => output.write(Buffer.from('x\n'), resolve));
	assert.equal((error as NodeJS.ErrnoException | undefined)?.code, 'EPIPE');
});

test('a read that fails (a folder’s descriptor) is an error event, and nothing is handed over', async t => {
	const dir = folder(t);
	const fd = openSync(dir, 'r');
	t.after(() => closeSync(fd));
	const input = new FdInput(fd, () => assert.fail('only EAGAIN hands over'));
	const error = await new Promise<NodeJS.ErrnoException>(resolve => input.once('error', resolve));
	assert.equal(error.code, 'EISDIR');
});
