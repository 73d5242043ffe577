'use strict';
// A start-up snapshot's copy of node's own code cache, taken out. `node
// --build-snapshot` ends every blob with V8's compiled code of all of node's
// builtins, about 400 of them and 2.6 MB (Node 20) to 3.7 MB (Node 24), half
// of the official host's blob. Node reads the whole file at every start, so
// those bytes cost page faults and copies (2 to 3.5 ms of the host's CPU on
// Node 24) for nothing the host uses: the builtins it runs are in the
// snapshot's heap already, compiled, and a turn loads no other. What a rare
// path loads later (node:http for web's first request) is compiled from its
// source then, once per host. The snapshot's own compiled functions (V8's
// part of the blob) stay: `withoutCodeCache` in a build config would drop
// them too, and the host then spends more compiling than it saves.
//
// The blob's layout (node's src/node_snapshotable.cc, SnapshotData::ToBlob)
// ends with that cache as a vector: a 64-bit count, then for each builtin a
// 64-bit length and its id, a 64-bit length and its code. Nothing after it.
// The vector is found by walking it: the one offset from which `count`
// entries with builtin-like ids end exactly at the end of the file. A blob
// where none does (another layout) is left whole; the caller still checks
// that a host starts from what it keeps (scripts/bundle.js, host-snapshot.js).
const {readFileSync, writeFileSync} = require('node:fs');

/** Node 24 has 392 builtins; a count past this is not the vector. */
const MAX_BUILTINS = 4096;
/** Builtin ids are short paths ("internal/deps/undici/undici"). */
const MAX_ID_BYTES = 256;
const builtinId = /^[A-Za-z0-9_./-]+$/;

/**
 * The blob without node's code cache: the same bytes up to the vector, then
 * a count of zero. Undefined when `blob` does not end with such a vector
 * (or it is empty already), so the caller keeps `blob` as it is.
 * @param {Buffer} blob
 * @returns {{blob: Buffer, builtins: number, removedBytes: number} | undefined}
 */
function withoutBuiltinCodeCache(blob) {
	for (let offset = 0; offset + 8 <= blob.length; offset++) {
		const builtins = vectorAt(blob, offset);
		if (builtins === undefined) continue;
		const trimmed = Buffer.concat([blob.subarray(0, offset), Buffer.alloc(8)]);
		return {blob: trimmed, builtins, removedBytes: blob.length - trimmed.length};
	}

	return undefined;
}

/**
 * Takes node's code cache out of the blob `file` in place, and puts it back
 * when a host no longer starts from the blob (`hostStarts`). Returns what
 * was taken out, or undefined when the blob is as it was.
 * @param {string} file
 * @param {() => boolean} hostStarts
 */
function dropBuiltinCodeCache(file, hostStarts) {
	const whole = readFileSync(file);
	const found = withoutBuiltinCodeCache(whole);
	if (found === undefined) return undefined;
	writeFileSync(file, found.blob);
	if (hostStarts()) return {builtins: found.builtins, removedBytes: found.removedBytes};
	writeFileSync(file, whole);
	return undefined;
}

/** The number of entries when a code cache vector starts at `offset` and ends the blob. */
function vectorAt(blob, offset) {
	const count = readLength(blob, offset);
	if (count === undefined || count === 0 || count > MAX_BUILTINS) return undefined;
	let at = offset + 8;
	for (let entry = 0; entry < count; entry++) {
		const idLength = readLength(blob, at);
		if (idLength === undefined || idLength === 0 || idLength > MAX_ID_BYTES || at + 8 + idLength > blob.length) return undefined;
		if (!builtinId.test(blob.toString('latin1', at + 8, at + 8 + idLength))) return undefined;
		at += 8 + idLength;
		const codeLength = readLength(blob, at);
		if (codeLength === undefined || at + 8 + codeLength > blob.length) return undefined;
		at += 8 + codeLength;
	}

	return at === blob.length ? count : undefined;
}

/** A 64-bit little-endian length at `at`, or undefined past the end or past 2^53. */
function readLength(blob, at) {
	if (at + 8 > blob.length) return undefined;
	const high = blob.readUInt32LE(at + 4);
	if (high >= 0x20_0000) return undefined;
	return high * 0x1_0000_0000 + blob.readUInt32LE(at);
}

module.exports = {dropBuiltinCodeCache, withoutBuiltinCodeCache};
