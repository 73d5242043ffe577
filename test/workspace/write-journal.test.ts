import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {randomUUID} from 'node:crypto';
import {existsSync} from 'node:fs';
import {mkdir, readdir, readFile, symlink, utimes, writeFile} from 'node:fs/promises';
import {hostname} from 'node:os';
import {join} from 'node:path';
import {test, type TestContext} from 'node:test';
import {writeFileAtomic} from '../../source/core/fs/atomic-write.js';
import {removeWriteDebris, WriteJournal} from '../../source/core/fs/write-journal.js';
import {hasProc, otherStart, startTimeOf, unrelatedProcess} from '../helpers/live-process.js';
import {tempDir} from './helpers.js';

/** A PID no process has any more: a node that ran and exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid;

/** A workspace and its journal folder, empty. */
async function place(t: TestContext): Promise<{workspace: string; journal: string}> {
	const dir = await tempDir(t);
	const workspace = join(dir, 'workspace');
	const journal = join(dir, 'writes');
	await mkdir(workspace);
	await mkdir(journal);
	return {workspace, journal};
}

/** Leaves what a writer killed mid-write would: its temp file (when `temp` is a name) and its journal entry. */
async function leftover(journal: string, temp: string, owner: {pid: number; started?: string; hostname?: string}, options: {create?: boolean} = {}): Promise<string> {
	if (options.create !== false) await writeFile(temp, 'half');
	const entry = join(journal, `${owner.pid}.${randomUUID()}.json`);
	await writeFile(entry, JSON.stringify({temp, hostname: hostname(), ...owner}));
	return entry;
}

const tempOf = (workspace: string, name: string, pid: number) => join(workspace, `.${name}.${pid}.${randomUUID()}.tmp`);

test('writeFileAtomic with a journal notes the temp file with its writer while it exists, and forgets it after a write or a failure', async t => {
	const {workspace, journal} = await place(t);
	const noted: Array<{entry: unknown; temp: boolean}> = [];
	const writes = new WriteJournal({folder: async () => journal, warn: message => assert.fail(message)});
	const spy = {
		async begin(temp: string) {
			const forget = await writes.begin(temp);
			const [name] = await readdir(journal);
			noted.push({entry: JSON.parse(await readFile(join(journal, name!), 'utf8')), temp: existsSync(temp)});
			return forget;
		},
	};
	await writeFileAtomic(join(workspace, 'a.txt'), 'new', {journal: spy});
	assert.equal(await readFile(join(workspace, 'a.txt'), 'utf8'), 'new');
	assert.deepEqual(await readdir(journal), [], 'the entry is gone once the write is done');
	const [first] = noted;
	const entry = first!.entry as {temp: string; pid: number; hostname: string; started?: string};
	assert.equal(first!.temp, false, 'the entry is written before the temp file exists');
	assert.match(entry.temp, new RegExp(`^${workspace}/\\.a\\.txt\\.${process.pid}\\.[0-9a-f-]{36}\\.tmp$`));
	assert.deepEqual([entry.pid, entry.hostname, entry.started], [process.pid, hostname(), hasProc ? startTimeOf(process.pid) : undefined]);

	await assert.rejects(writeFileAtomic(join(workspace, 'missing', 'b.txt'), 'x', {journal: spy}), {code: 'ENOENT'});
	assert.deepEqual(await readdir(journal), [], 'a failed write forgets its entry too');
});

test('a journal that cannot be written warns once, and the write goes on', async t => {
	const {workspace, journal} = await place(t);
	const blocker = join(journal, 'file');
	await writeFile(blocker, '');
	const warnings: string[] = [];
	const writes = new WriteJournal({folder: async () => join(blocker, 'writes'), warn: message => warnings.push(message)});
	await writeFileAtomic(join(workspace, 'a.txt'), 'one', {journal: writes});
	await writeFileAtomic(join(workspace, 'a.txt'), 'two', {journal: writes});
	assert.equal(await readFile(join(workspace, 'a.txt'), 'utf8'), 'two');
	assert.equal(warnings.length, 1);
	assert.match(warnings[0]!, /^could not note an unfinished write in the workspace's state folder \(.*ENOTDIR.*\); a write killed half-way may leave its temporary file behind$/);
});

test('a start removes the temp files of writers that are gone, and their entries', async t => {
	const {workspace, journal} = await place(t);
	const dead = deadPid();
	const temp = tempOf(workspace, 'a.txt', dead);
	await leftover(journal, temp, {pid: dead});
	// A writer killed before its temp file was made leaves only its entry.
	await leftover(journal, tempOf(workspace, 'b.txt', dead), {pid: dead}, {create: false});
	assert.deepEqual(await removeWriteDebris(journal), [temp]);
	assert.equal(existsSync(temp), false);
	assert.deepEqual(await readdir(journal), []);
	assert.deepEqual(await removeWriteDebris(join(workspace, 'no-journal')), [], 'no journal folder: nothing to do');
});

test('a live writer keeps its temp file; a PID now taken by a process that started at another time does not', {skip: !hasProc && 'needs /proc'}, async t => {
	const {workspace, journal} = await place(t);
	const {pid, started} = await unrelatedProcess(t);
	const live = tempOf(workspace, 'live.txt', pid);
	const liveEntry = await leftover(journal, live, {pid, started});
	const reused = tempOf(workspace, 'reused.txt', pid);
	await leftover(journal, reused, {pid, started: otherStart(started)});
	const elsewhere = tempOf(workspace, 'elsewhere.txt', deadPid());
	const elsewhereEntry = await leftover(journal, elsewhere, {pid: deadPid(), hostname: `not-${hostname()}`});
	assert.deepEqual(await removeWriteDebris(journal), [reused]);
	assert.ok(existsSync(live), "a running writer's temp file is kept");
	assert.ok(existsSync(elsewhere), "another host's writer cannot be checked: its temp file is kept");
	assert.deepEqual((await readdir(journal)).sort(), [liveEntry, elsewhereEntry].map(path => path.slice(journal.length + 1)).sort());
});

test("only a regular file of the temp shape named for the entry's own writer is removed", async t => {
	const {workspace, journal} = await place(t);
	const dead = deadPid();
	const kept = [join(workspace, 'notes.tmp'), join(workspace, `.a.txt.${dead}.not-a-uuid.tmp`), tempOf(workspace, 'a.txt', dead + 1), join(workspace, 'a.txt')];
	for (const path of kept) await leftover(journal, path, {pid: dead});
	const folder = tempOf(workspace, 'dir', dead);
	await mkdir(folder);
	await leftover(journal, folder, {pid: dead}, {create: false});
	const link = tempOf(workspace, 'link', dead);
	await symlink(join(workspace, 'a.txt'), link);
	await leftover(journal, link, {pid: dead}, {create: false});
	await leftover(journal, `.relative.${dead}.${randomUUID()}.tmp`, {pid: dead}, {create: false});
	assert.deepEqual(await removeWriteDebris(journal), []);
	for (const path of [...kept, folder, link]) assert.ok(existsSync(path), `${path} was kept`);
	assert.deepEqual(await readdir(journal), [], 'the entries of writers that are gone go all the same');
});

test('an unreadable entry is left while it may be mid-write, and removed once older than 10 s', async t => {
	const {journal} = await place(t);
	const torn = join(journal, `${process.pid}.${randomUUID()}.json`);
	await writeFile(torn, '{"temp":');
	assert.deepEqual(await removeWriteDebris(journal), []);
	assert.ok(existsSync(torn));
	const old = new Date(Date.now() - 11_000);
	await utimes(torn, old, old);
	assert.deepEqual(await removeWriteDebris(journal), []);
	assert.equal(existsSync(torn), false);
});
