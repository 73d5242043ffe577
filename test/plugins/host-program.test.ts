import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, realpathSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {hostProgramArgv, programArgv, snapshotBuild, snapshotFlags} from '../../source/core/plugins/program.js';

/** A snapshot note in a temp folder: the blob itself is never read by hostProgramArgv, only named. */
function snapshotWith(note: unknown): {blob: URL; note: URL} {
	const dir = realpathSync(mkdtempSync(join(tmpdir(), 'i-snapshot-')));
	const path = join(dir, 'official.blob.json');
	if (note !== undefined) writeFileSync(path, typeof note === 'string' ? note : JSON.stringify(note));
	return {blob: pathToFileURL(join(dir, 'official.blob')), note: pathToFileURL(path)};
}

test('the official host starts from its snapshot only when this very node built it', () => {
	const program = programArgv();
	const fits = snapshotWith(snapshotBuild());
	assert.deepEqual(hostProgramArgv(program, fits), [program[0], ...snapshotFlags, '--snapshot-blob', join(new URL('.', fits.blob).pathname, 'official.blob'), ...program.slice(1)]);
	// Another version, another binary, no note or a broken one: the host's bundle, never a blob node would refuse.
	for (const note of [
		{...snapshotBuild(), node: 'v99.0.0'},
		{...snapshotBuild(), flags: []},
		{...snapshotBuild(), flags: undefined},
		{...snapshotBuild(), execPath: '/opt/node/bin/node'},
		{...snapshotBuild(), size: 1},
		undefined,
		'{"node":',
	]) {
		assert.deepEqual(hostProgramArgv(program, snapshotWith(note)), program, JSON.stringify(note));
	}
});

test('without a snapshot of its own the host starts from the kept one, if any; its own snapshot comes first', () => {
	const program = programArgv();
	const kept = '/cache/host/official-kept.blob';
	assert.deepEqual(
		hostProgramArgv(program, snapshotWith(undefined), () => kept),
		[program[0], ...snapshotFlags, '--snapshot-blob', kept, ...program.slice(1)],
	);
	assert.deepEqual(
		hostProgramArgv(program, snapshotWith(undefined), () => undefined),
		program,
	);
	const fits = snapshotWith(snapshotBuild());
	let asked = false;
	const own = hostProgramArgv(program, fits, () => {
		asked = true;
		return kept;
	});
	assert.equal(own[2 + snapshotFlags.length], join(new URL('.', fits.blob).pathname, 'official.blob'));
	assert.equal(asked, false, 'the kept snapshot is not looked for when the build has one');
});
