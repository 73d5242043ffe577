// The parts of i dev that stage a build: the bounded copy, the workspace's
// member packages, the numbered copy folders (issue 14 item 7).
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, readdirSync, realpathSync, truncateSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {copyBuild, MAX_STAGED_BYTES, MAX_STAGED_FILES} from '../../source/core/extensions/dev/copy-build.js';
import {workspaceMembers} from '../../source/core/extensions/dev/workspace-members.js';
import {StagingArea} from '../../source/core/extensions/dev/staging-area.js';

function tempDir(): string {
	return realpathSync(mkdtempSync(join(tmpdir(), 'i-dev-stage-')));
}

test(`a staged copy takes ${MAX_STAGED_FILES} files; one more is refused, saying how to stage less`, async () => {
	const root = tempDir();
	const dist = join(root, 'pkg', 'dist');
	mkdirSync(dist, {recursive: true});
	for (let index = 0; index < MAX_STAGED_FILES; index++) writeFileSync(join(dist, `f${index}.js`), '');
	// Never counted: dependencies and version control.
	mkdirSync(join(dist, 'node_modules', 'x'), {recursive: true});
	writeFileSync(join(dist, 'node_modules', 'x', 'index.js'), '');
	await copyBuild(join(root, 'pkg'), join(root, 'copy-1'), ['dist'], 'the build of pkg');
	assert.equal(readdirSync(join(root, 'copy-1', 'dist')).length, MAX_STAGED_FILES);
	writeFileSync(join(dist, 'one-more.js'), '');
	await assert.rejects(copyBuild(join(root, 'pkg'), join(root, 'copy-2'), ['dist'], 'the build of pkg'), (error: Error) => {
		assert.equal(error.name, 'BuildFailedError');
		assert.equal(
			error.message,
			`the build of pkg has more than ${MAX_STAGED_FILES} files to copy into ${join(root, 'copy-2')} (dist); a staged build holds what the extension needs at run time: list that in package.json "files"`,
		);
		return true;
	});
});

test(`a staged copy of more than ${MAX_STAGED_BYTES / 1024 / 1024} MiB is refused before the byte past it is copied`, async () => {
	const root = tempDir();
	mkdirSync(join(root, 'pkg', 'dist'), {recursive: true});
	writeFileSync(join(root, 'pkg', 'dist', 'small.js'), 'x');
	// Sparse: its size is what counts, and it is never copied.
	writeFileSync(join(root, 'pkg', 'dist', 'z-big.bin'), '');
	truncateSync(join(root, 'pkg', 'dist', 'z-big.bin'), MAX_STAGED_BYTES);
	await assert.rejects(copyBuild(join(root, 'pkg'), join(root, 'copy'), ['dist'], 'the build of pkg'), /the build of pkg has more than 64 MiB to copy into/);
	assert.deepEqual(readdirSync(join(root, 'copy', 'dist')), ['small.js']);
});

test('workspace members: the folders the patterns match that hold a package.json, `!` excluding, never node_modules or hidden folders', async () => {
	const root = tempDir();
	const pkg = (path: string, name?: string) => {
		mkdirSync(join(root, path), {recursive: true});
		writeFileSync(join(root, path, 'package.json'), JSON.stringify(name === undefined ? {} : {name}));
	};

	pkg('packages/a', 'a-ext');
	pkg('packages/b', 'b-ext');
	pkg('packages/legacy', 'legacy');
	pkg('packages/node_modules/dep', 'dep');
	pkg('packages/.hidden', 'hidden');
	pkg('tools/deep/c', 'c-ext');
	pkg('apps/unnamed');
	mkdirSync(join(root, 'packages', 'no-manifest'));
	const members = await workspaceMembers(root, ['./packages/*', '!packages/legacy', 'tools/**', 'apps/unnamed/']);
	assert.deepEqual(
		members.map(member => [member.name, member.folder]),
		[
			['apps/unnamed', join(root, 'apps', 'unnamed')],
			['a-ext', join(root, 'packages', 'a')],
			['b-ext', join(root, 'packages', 'b')],
			['c-ext', join(root, 'tools', 'deep', 'c')],
		],
	);
});

test('copies are numbered per package name; a scoped name becomes a folder name of its own', async () => {
	const workspace = tempDir();
	const area = await StagingArea.open(workspace);
	try {
		const first = await area.allocate('@me/ext');
		const second = await area.allocate('@me/ext');
		const other = await area.allocate('me-ext');
		assert.deepEqual(
			[first, second, other].map(path => path.slice(area.folder.length + 1)),
			['me+ext-1', 'me+ext-2', 'me-ext-1'],
		);
		await area.discard(first);
		assert.equal((await area.allocate('@me/ext')).slice(area.folder.length + 1), 'me+ext-3');
	} finally {
		await area.close();
	}

	assert.deepEqual(readdirSync(area.folder), ['.gitignore']);
});
