// A start-up snapshot without node's code cache of its builtins
// (bin/snapshot-code-cache.js): found by walking the vector that ends the
// blob, cut to a count of zero, put back when a host would not start from
// the result; a blob of another layout is left whole.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {snapshotFlags} from '../../source/core/plugins/program.js';

type Found = {blob: Buffer; builtins: number; removedBytes: number};
const {dropBuiltinCodeCache, withoutBuiltinCodeCache} = createRequire(import.meta.url)('../../../bin/snapshot-code-cache.js') as {
	dropBuiltinCodeCache: (file: string, hostStarts: () => boolean) => {builtins: number; removedBytes: number} | undefined;
	withoutBuiltinCodeCache: (blob: Buffer) => Found | undefined;
};
const shippedBlob = fileURLToPath(new URL('../../host/official.blob', import.meta.url));

/** A real blob from `node --build-snapshot`, whose main prints what it computes with two builtins. */
function buildSnapshot(): {folder: string; blob: string} {
	const folder = mkdtempSync(join(tmpdir(), 'i-snapshot-cache-'));
	const entry = join(folder, 'entry.js');
	writeFileSync(
		entry,
		"const v8 = require('node:v8'); const path = require('node:path');\n" +
			"v8.startupSnapshot.setDeserializeMainFunction(() => process.stdout.write(path.join('from', 'snapshot') + ' ' + require('node:util').format('%d', 42)));\n",
	);
	const blob = join(folder, 'entry.blob');
	const built = spawnSync(process.execPath, [...snapshotFlags, '--snapshot-blob', blob, '--build-snapshot', entry], {encoding: 'utf8'});
	assert.equal(built.status, 0, built.stderr);
	return {folder, blob};
}

const runFrom = (blob: string) => spawnSync(process.execPath, [...snapshotFlags, '--snapshot-blob', blob], {encoding: 'utf8'});

/** A vector of `ids` with `codeBytes` of code each, after `prefix` bytes of something else. */
function vector(ids: readonly string[], codeBytes = 3, prefix = Buffer.from('snapshot data')): Buffer {
	const length = (value: number) => {
		const field = Buffer.alloc(8);
		field.writeBigUInt64LE(BigInt(value));
		return field;
	};
	return Buffer.concat([prefix, length(ids.length), ...ids.flatMap(id => [length(id.length), Buffer.from(id, 'latin1'), length(codeBytes), Buffer.alloc(codeBytes, 7)])]);
}

test('a built blob loses its code cache, about half of it, and node starts from what is left with the same result', () => {
	const {blob} = buildSnapshot();
	const whole = readFileSync(blob);
	const found = withoutBuiltinCodeCache(whole);
	assert.ok(found, 'the code cache vector was found');
	assert.ok(found.builtins > 100, `${found.builtins} builtins`);
	assert.ok(found.removedBytes > whole.length / 3, `${found.removedBytes} of ${whole.length} bytes`);
	assert.equal(found.blob.length + found.removedBytes, whole.length);
	assert.deepEqual(found.blob.subarray(0, -8), whole.subarray(0, found.blob.length - 8));
	assert.equal(found.blob.readBigUInt64LE(found.blob.length - 8), 0n);
	// Nothing is left to take out of it.
	assert.equal(withoutBuiltinCodeCache(found.blob), undefined);

	const before = runFrom(blob);
	assert.equal(dropBuiltinCodeCache(blob, () => runFrom(blob).status === 0)?.builtins, found.builtins);
	assert.deepEqual(readFileSync(blob), found.blob);
	const after = runFrom(blob);
	assert.deepEqual([after.status, after.stdout, after.stderr], [0, 'from/snapshot 42', '']);
	assert.deepEqual([after.status, after.stdout], [before.status, before.stdout]);
});

test('a blob a host does not start from once cut is put back whole; one of another layout is not touched', () => {
	const {folder, blob} = buildSnapshot();
	const whole = readFileSync(blob);
	let checked = 0;
	assert.equal(
		dropBuiltinCodeCache(blob, () => {
			checked++;
			// The check sees the cut blob.
			assert.ok(readFileSync(blob).length < whole.length);
			return false;
		}),
		undefined,
	);
	assert.equal(checked, 1);
	assert.deepEqual(readFileSync(blob), whole);

	// A byte more or less at the end, or no vector at all: not this layout.
	for (const [name, bytes] of [
		['longer', Buffer.concat([whole, Buffer.from([0])])],
		['shorter', whole.subarray(0, -1)],
		['text', Buffer.from('not a snapshot\n'.repeat(100))],
		['empty', Buffer.alloc(0)],
	] as const) {
		const file = join(folder, `${name}.blob`);
		writeFileSync(file, bytes);
		assert.equal(
			dropBuiltinCodeCache(file, () => assert.fail(`${name}: nothing to check`)),
			undefined,
			name,
		);
		assert.deepEqual(readFileSync(file), bytes, name);
	}
});

test("the vector's limits: ids up to 256 bytes of builtin-like names, up to 4096 entries, and it must end the blob", () => {
	assert.equal(withoutBuiltinCodeCache(vector(['internal/deps/undici/undici', 'fs', 'wasi']))?.builtins, 3);
	assert.equal(withoutBuiltinCodeCache(vector(['a'.repeat(256)]))?.builtins, 1);
	assert.equal(withoutBuiltinCodeCache(vector(['a'.repeat(257)])), undefined);
	assert.equal(
		withoutBuiltinCodeCache(
			vector(
				Array.from({length: 4096}, (_, index) => `m${index}`),
				0,
			),
		)?.builtins,
		4096,
	);
	assert.equal(
		withoutBuiltinCodeCache(
			vector(
				Array.from({length: 4097}, (_, index) => `m${index}`),
				0,
			),
		),
		undefined,
	);
	for (const id of ['has space', 'quote"', '', 'é']) assert.equal(withoutBuiltinCodeCache(vector([id])), undefined, JSON.stringify(id));
	// Code that runs past the end, or stops short of it.
	const cut = vector(['fs']);
	assert.equal(withoutBuiltinCodeCache(cut.subarray(0, -1)), undefined);
	assert.equal(withoutBuiltinCodeCache(Buffer.concat([cut, Buffer.from('x')])), undefined);
	// What comes before the vector is kept byte for byte.
	const found = withoutBuiltinCodeCache(vector(['fs'], 5, Buffer.from('PREFIX')));
	assert.deepEqual(found?.blob, Buffer.concat([Buffer.from('PREFIX'), Buffer.alloc(8)]));
});

test("the official host's built snapshot holds no code cache of node's builtins", {skip: !existsSync(shippedBlob) && 'this node built no snapshot'}, () => {
	assert.equal(withoutBuiltinCodeCache(readFileSync(shippedBlob)), undefined);
});
