import assert from 'node:assert/strict';
import {createHash, randomUUID} from 'node:crypto';
import {existsSync} from 'node:fs';
import {mkdir, readFile, stat, utimes, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import {setTimeout as sleep} from 'node:timers/promises';
import {MAX_REGISTRY_BYTES, MAX_WORKSPACES, registryPath, workspaceId, workspaceStateDir} from '../../source/core/config/workspace-registry.js';
import {compiledUrl, dirsUnder, runScript, tempDir} from './helpers.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function digest(path: string): string {
	return createHash('sha256').update(path).digest('hex');
}

/** A valid registry of `count` made-up workspaces, pretty-printed as the registry writes it. */
function registryText(count: number): string {
	const workspaces: Record<string, string> = {};
	for (let index = 0; index < count; index++) workspaces[index.toString(16).padStart(64, '0')] = randomUUID();
	return `${JSON.stringify({version: 1, workspaces}, null, '\t')}\n`;
}

test('a new workspace gets a UUID; asking again returns it without rewriting the registry', async t => {
	const root = await tempDir(t);
	const dirs = dirsUnder(root);
	const id = await workspaceId('/projects/a', dirs);
	assert.match(id, uuid);
	const path = registryPath(dirs);
	assert.equal(path, join(root, 'data', 'workspaces.json'));
	assert.deepEqual(JSON.parse(await readFile(path, 'utf8')), {version: 1, workspaces: {[digest('/projects/a')]: id}});

	// An old mtime shows any rewrite, however fast.
	const old = new Date(Date.now() - 60_000);
	await utimes(path, old, old);
	const before = {text: await readFile(path, 'utf8'), mtimeMs: (await stat(path)).mtimeMs, ino: (await stat(path)).ino};
	assert.equal(await workspaceId('/projects/a', dirs), id);
	assert.deepEqual({text: await readFile(path, 'utf8'), mtimeMs: (await stat(path)).mtimeMs, ino: (await stat(path)).ino}, before);
	assert.equal(existsSync(`${path}.lock`), false);

	const other = await workspaceId('/projects/b', dirs);
	assert.notEqual(other, id);
	assert.equal(await workspaceId('/projects/a', dirs), id);
	assert.equal(Object.keys(JSON.parse(await readFile(path, 'utf8')).workspaces).length, 2);
});

test('the state folder is data/workspaces/<id>/ and only a UUID names one', async t => {
	const root = await tempDir(t);
	const dirs = dirsUnder(root);
	const id = await workspaceId('/p', dirs);
	assert.equal(workspaceStateDir(dirs, id), join(root, 'data', 'workspaces', id));
	// Created on demand by whoever writes there, not by asking.
	assert.equal(existsSync(join(root, 'data', 'workspaces')), false);
	assert.throws(() => workspaceStateDir(dirs, '../../etc'), {name: 'UsageError', message: 'workspace ID "../../etc" is not a UUID'});
});

test('10000 workspaces fit; the 10001st is refused with a clear error', async t => {
	const root = await tempDir(t);
	const dirs = dirsUnder(root);
	const path = registryPath(dirs);
	await mkdir(dirs.data_dir);
	await writeFile(path, registryText(MAX_WORKSPACES - 1));
	const last = await workspaceId('/projects/last', dirs);
	const registry = JSON.parse(await readFile(path, 'utf8'));
	assert.equal(Object.keys(registry.workspaces).length, MAX_WORKSPACES);
	assert.equal(registry.workspaces[digest('/projects/last')], last);
	assert.ok((await stat(path)).size < MAX_REGISTRY_BYTES);

	const full = await readFile(path, 'utf8');
	await assert.rejects(workspaceId('/projects/one-more', dirs), {
		name: 'UsageError',
		message: `workspace registry ${path} is full (10000 workspaces, at most 10000); cannot register /projects/one-more. Remove entries of workspaces you no longer use (their state under workspaces/<id>/ goes with them)`,
	});
	assert.equal(await readFile(path, 'utf8'), full);
	// Known workspaces still resolve.
	assert.equal(await workspaceId('/projects/last', dirs), last);
});

test('the registry is read up to 2 MB: at the limit it is used, one byte over it is refused', async t => {
	const root = await tempDir(t);
	const dirs = dirsUnder(root);
	const path = registryPath(dirs);
	await mkdir(dirs.data_dir);
	const id = randomUUID();
	const json = JSON.stringify({version: 1, workspaces: {[digest('/big')]: id}});
	await writeFile(path, json + ' '.repeat(MAX_REGISTRY_BYTES - json.length));
	assert.equal((await stat(path)).size, MAX_REGISTRY_BYTES);
	assert.equal(await workspaceId('/big', dirs), id);

	await writeFile(path, json + ' '.repeat(MAX_REGISTRY_BYTES - json.length + 1));
	await assert.rejects(workspaceId('/big', dirs), {
		name: 'UsageError',
		message: `workspace registry ${path}: the file is over 2097152 bytes, the limit; it is not read. Move it away to start a new one (workspaces then get new IDs)`,
	});
});

test('a corrupt registry is an error naming the file, and is never replaced', async t => {
	const root = await tempDir(t);
	const dirs = dirsUnder(root);
	const path = registryPath(dirs);
	await mkdir(dirs.data_dir);
	const cases: Array<[string, RegExp]> = [
		['{"version":1,"workspaces":', /\(not valid JSON: /],
		['[]', /\(field "\(top level\)": /],
		['{"version":2,"workspaces":{}}', /\(field "version": /],
		[`{"version":1,"workspaces":{"${digest('/a')}":"not-a-uuid"}}`, new RegExp(`\\(field "workspaces.${digest('/a')}": `)],
		['{"version":1,"workspaces":{"/a":"f29127b0-f512-4c6e-9e31-87d476d168ce"}}', /\(key "\/a" in "workspaces": keys must be sha256 digests \(64 lowercase hex digits\)\)/],
		['{"version":1,"workspaces":{},"extra":1}', /\(unknown field "extra"\)/],
		['{"workspaces":{}}', /\(missing field "version"\)/],
	];
	for (const [text, why] of cases) {
		await writeFile(path, text);
		await assert.rejects(workspaceId('/new', dirs), (error: Error) => {
			assert.equal(error.name, 'UsageError', text);
			assert.ok(error.message.startsWith(`workspace registry ${path} is corrupt (`), error.message);
			assert.match(error.message, why, text);
			assert.ok(error.message.endsWith('it is never replaced automatically: repair it, or move it away to start a new one (workspaces then get new IDs)'));
			return true;
		});
		assert.equal(await readFile(path, 'utf8'), text);
	}
});

test('eight processes registering different workspaces at once lose none, and the file always parses', async t => {
	const root = await tempDir(t);
	const dirs = dirsUnder(root);
	const path = registryPath(dirs);
	const perProcess = 15;
	const script = (child: number) => `
		import {workspaceId} from ${JSON.stringify(compiledUrl('source/core/config/workspace-registry.js'))};
		const ids = {};
		for (let n = 0; n < ${perProcess}; n++) {
			const workspace = '/projects/${child}/' + n;
			ids[workspace] = await workspaceId(workspace, ${JSON.stringify(dirs)});
		}
		console.log(JSON.stringify(ids));
	`;
	let running = true;
	let reads = 0;
	// Every read while they write sees a whole registry: atomic replacement, never a half-written file.
	const reader = (async () => {
		while (running) {
			if (existsSync(path)) {
				JSON.parse(await readFile(path, 'utf8'));
				reads++;
			}

			await sleep(2);
		}
	})();
	const results = await Promise.all(Array.from({length: 8}, async (_, child) => runScript(script(child))));
	running = false;
	await reader;
	const expected: Record<string, string> = {};
	for (const result of results) {
		assert.equal(result.code, 0, result.stderr);
		for (const [workspace, id] of Object.entries(JSON.parse(result.stdout) as Record<string, string>)) expected[digest(workspace)] = id;
	}

	assert.equal(Object.keys(expected).length, 8 * perProcess);
	assert.deepEqual(JSON.parse(await readFile(path, 'utf8')), {version: 1, workspaces: expected});
	assert.equal(new Set(Object.values(expected)).size, 8 * perProcess);
	assert.ok(reads > 0);
	assert.equal(existsSync(`${path}.lock`), false);
});
