'use strict';
// Makes the official host's start-up snapshot for a copy of `i` that has
// none of its own (an installed package: a snapshot only runs on the node
// that built it, so the tarball carries the snapshot's source, not a blob),
// and keeps it in the cache folder: `node host-snapshot.js SOURCE BLOB NOTE`.
// Started detached by the run that found none (source/core/plugins/
// kept-snapshot.ts), so no run waits for it; later runs start the host from
// it. One builder at a time: the run takes `BLOB.lock` before starting this,
// which removes it when done. A blob is kept only once a host
// started from it has exited cleanly, and the note that vouches for it is
// written after it is in place. A failed build leaves `BLOB.failed` with the
// note, so runs of the same node and source do not try again. A build that
// succeeds removes the blobs no run can use any more (removeOrphans).
const {spawnSync} = require('node:child_process');
const {existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync} = require('node:fs');
const {dirname, join} = require('node:path');
const {dropBuiltinCodeCache} = require('./snapshot-code-cache.js');

/** The build serves a sample turn; a node that takes longer than this is left without a kept snapshot. */
const BUILD_TIMEOUT_MS = 120 * 1000;

const [source, blob, noteText] = process.argv.slice(2);
if (!source || !blob || !noteText) {
	process.stderr.write('usage: node host-snapshot.js SOURCE BLOB NOTE\n');
	process.exit(2);
}

const folder = dirname(blob);
const lock = `${blob}.lock`;
const temporary = `${blob}.${process.pid}.tmp`;
// The V8 flags the blob is built and started with (program.ts snapshotFlags), as the note names them.
const flags = readFlags(noteText);
mkdirSync(folder, {recursive: true});
try {
	const built = flags && spawnSync(process.execPath, [...flags, '--snapshot-blob', temporary, '--build-snapshot', source], {cwd: folder, stdio: 'ignore', timeout: BUILD_TIMEOUT_MS, windowsHide: true});
	// A host started from it, given no request, must exit cleanly: a blob node refuses would fail every run.
	const hostStarts = () =>
		spawnSync(process.execPath, [...flags, '--snapshot-blob', temporary, join(__dirname, 'i.js'), '--runtime', 'worker', 'official'], {stdio: 'ignore', timeout: BUILD_TIMEOUT_MS, windowsHide: true}).status ===
		0;
	// Without node's code cache of its builtins, half the blob (snapshot-code-cache.js), if a host starts from it; else whole, if one does.
	const started = built?.status === 0 && (dropBuiltinCodeCache(temporary, hostStarts) !== undefined || hostStarts());
	if (!started) {
		writeFileSync(`${blob}.failed`, noteText);
	} else {
		renameSync(temporary, blob);
		const note = {...JSON.parse(noteText), blobSize: statSync(blob).size};
		writeFileSync(`${blob}.json.tmp`, JSON.stringify(note));
		renameSync(`${blob}.json.tmp`, `${blob}.json`);
		rmSync(`${blob}.failed`, {force: true});
		removeOrphans(note);
	}
} finally {
	rmSync(temporary, {force: true});
	rmSync(lock, {force: true});
}

function readFlags(text) {
	let flags;
	try {
		flags = JSON.parse(text)?.build?.flags;
	} catch {}
	// A note without them fails the build (BLOB.failed), as a blob that would not start does.
	return Array.isArray(flags) && flags.every(flag => typeof flag === 'string' && flag.startsWith('--')) ? flags : undefined;
}

/**
 * The blobs no run can use any more go: those of a source that is gone (an
 * uninstalled copy, an npx folder cleaned away), those this node's path
 * held before it was replaced by another version, and those of this very
 * source and node under another name (an earlier version named blobs by
 * another digest of the path). Each is 3 to 4 MB.
 */
function removeOrphans(kept) {
	for (const name of readdirSync(folder)) {
		if (!name.endsWith('.blob.json') || join(folder, name) === `${blob}.json`) continue;
		let note;
		try {
			note = JSON.parse(readFileSync(join(folder, name), 'utf8'));
		} catch {
			continue;
		}

		const sourceGone = typeof note?.source?.path === 'string' && !existsSync(note.source.path);
		// This node's path: at another version, or at this one for this very source (a blob under an earlier name).
		const sameNodePath = note?.build?.execPath === kept.build.execPath;
		const superseded = sameNodePath && (note?.build?.node !== kept.build.node || note?.source?.path === kept.source.path);
		if (!sourceGone && !superseded) continue;
		const other = join(folder, name.slice(0, -'.json'.length));
		for (const path of [other, `${other}.json`, `${other}.failed`]) rmSync(path, {force: true});
	}
}
