// Reading AGENTS.md (issue 17 item 3): the folders from the repository root
// down to the workspace, the global file first, the 64 KiB cut at a UTF-8
// boundary, and files that cannot be used becoming notices, never failures.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {instructionFolders, MAX_INSTRUCTION_FOLDERS, MAX_INSTRUCTIONS_FILE_BYTES, readProjectInstructions, utf8Boundary} from '../../source/core/resources/project-instructions.js';
import {INSTRUCTIONS_HEADING, renderInstructionsBlock, replaceInstructions, withInstructions} from '../../source/core/resources/instructions-block.js';

function tree(): {root: string; repo: string; middle: string; workspace: string; config: string} {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-agents-')));
	const repo = join(root, 'repo');
	const middle = join(repo, 'packages');
	const workspace = join(middle, 'app');
	const config = join(root, 'config');
	mkdirSync(workspace, {recursive: true});
	mkdirSync(join(repo, '.git'));
	mkdirSync(config);
	return {root, repo, middle, workspace, config};
}

test('the folders run from the repository root (a .git folder or file) to the workspace; without one, the workspace alone', async () => {
	const {root, repo, middle, workspace} = tree();
	assert.deepEqual(await instructionFolders(workspace), [repo, middle, workspace]);
	// A worktree's .git is a file.
	const worktree = join(root, 'worktree', 'sub');
	mkdirSync(worktree, {recursive: true});
	writeFileSync(join(root, 'worktree', '.git'), 'gitdir: /elsewhere\n');
	assert.deepEqual(await instructionFolders(worktree), [join(root, 'worktree'), worktree]);
	const loose = join(root, 'loose', 'deeper');
	mkdirSync(loose, {recursive: true});
	writeFileSync(join(root, 'loose', 'AGENTS.md'), 'not a project of the workspace\n');
	assert.deepEqual(await instructionFolders(loose), [loose]);
	assert.deepEqual((await readProjectInstructions({workspace: loose, configDir: join(root, 'none')})).files, []);
});

test(`a repository root MAX_INSTRUCTION_FOLDERS (${MAX_INSTRUCTION_FOLDERS}) folders up, the workspace included, is found; one folder higher, only the workspace is looked in`, async () => {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-instructions-deep-')));
	// root/.git, then the folders d1/d2/…: the workspace `levels` below the root makes a chain of levels + 1 folders.
	const under = (levels: number) => join(root, ...Array.from({length: levels}, (_, index) => `d${index + 1}`));
	mkdirSync(join(root, '.git'));
	mkdirSync(under(MAX_INSTRUCTION_FOLDERS), {recursive: true});
	const found = await instructionFolders(under(MAX_INSTRUCTION_FOLDERS - 1));
	assert.equal(found.length, MAX_INSTRUCTION_FOLDERS);
	assert.equal(found[0], root);
	assert.equal(found.at(-1), under(MAX_INSTRUCTION_FOLDERS - 1));
	assert.deepEqual(await instructionFolders(under(MAX_INSTRUCTION_FOLDERS)), [under(MAX_INSTRUCTION_FOLDERS)]);
});

test('global first, then the root, the middle folder and the workspace, each with its path; missing and empty files are skipped', async () => {
	const {repo, middle, workspace, config} = tree();
	writeFileSync(join(config, 'AGENTS.md'), 'global rule\n');
	writeFileSync(join(repo, 'AGENTS.md'), 'root rule\n');
	writeFileSync(join(middle, 'AGENTS.md'), '  \n');
	writeFileSync(join(workspace, 'AGENTS.md'), 'workspace rule\n');
	const {files, notices} = await readProjectInstructions({workspace, configDir: config});
	assert.deepEqual(notices, []);
	assert.deepEqual(
		files.map(file => [file.path, file.scope, file.text]),
		[
			[join(config, 'AGENTS.md'), 'global', 'global rule\n'],
			[join(repo, 'AGENTS.md'), 'project', 'root rule\n'],
			[join(workspace, 'AGENTS.md'), 'project', 'workspace rule\n'],
		],
	);
	const block = renderInstructionsBlock(files);
	const order = [join(config, 'AGENTS.md'), 'global rule', join(repo, 'AGENTS.md'), 'root rule', join(workspace, 'AGENTS.md'), 'workspace rule'].map(part => block.indexOf(part));
	assert.ok(
		order.every((at, index) => at > 0 && (index === 0 || at > order[index - 1]!)),
		`in order: ${order.join(', ')}`,
	);
	assert.ok(block.startsWith(`${INSTRUCTIONS_HEADING}\n`));
	assert.ok(block.includes(`## ${join(repo, 'AGENTS.md')}\n\nroot rule`));
});

test('a file of exactly 64 KiB is given whole; one byte more is cut with a note giving its real size', async () => {
	const {workspace, config} = tree();
	writeFileSync(join(workspace, 'AGENTS.md'), 'a'.repeat(MAX_INSTRUCTIONS_FILE_BYTES));
	const whole = (await readProjectInstructions({workspace, configDir: config})).files[0]!;
	assert.equal(whole.cut, false);
	assert.equal(whole.text.length, MAX_INSTRUCTIONS_FILE_BYTES);
	assert.ok(!renderInstructionsBlock([whole]).includes('[cut:'));

	writeFileSync(join(workspace, 'AGENTS.md'), 'a'.repeat(MAX_INSTRUCTIONS_FILE_BYTES + 1));
	const over = (await readProjectInstructions({workspace, configDir: config})).files[0]!;
	assert.equal(over.cut, true);
	assert.equal(over.bytes, MAX_INSTRUCTIONS_FILE_BYTES + 1);
	assert.equal(over.text.length, MAX_INSTRUCTIONS_FILE_BYTES);
	assert.ok(renderInstructionsBlock([over]).endsWith(`[cut: this file is ${MAX_INSTRUCTIONS_FILE_BYTES + 1} bytes; only its first ${MAX_INSTRUCTIONS_FILE_BYTES} bytes are given]`));
});

test('the cut never splits a UTF-8 character', async () => {
	const {workspace, config} = tree();
	// "你" is 3 bytes: one starts 2 bytes before the limit and would be split.
	const text = `${'a'.repeat(MAX_INSTRUCTIONS_FILE_BYTES - 2)}你${'b'.repeat(10)}`;
	writeFileSync(join(workspace, 'AGENTS.md'), text);
	const file = (await readProjectInstructions({workspace, configDir: config})).files[0]!;
	assert.equal(file.text, 'a'.repeat(MAX_INSTRUCTIONS_FILE_BYTES - 2));
	assert.ok(!file.text.includes('\uFFFD'));
	const bytes = Buffer.from('a你😀');
	assert.deepEqual(
		Array.from({length: bytes.length + 1}, (_, end) => utf8Boundary(bytes, end)),
		[0, 1, 1, 1, 4, 4, 4, 4, 8],
	);
});

test('a folder named AGENTS.md, a FIFO and a link out of the repository are notices; a link inside it and the global link are read', async () => {
	const {root, repo, middle, workspace, config} = tree();
	mkdirSync(join(repo, 'AGENTS.md'));
	execFileSync('mkfifo', [join(middle, 'AGENTS.md')]);
	const outside = join(root, 'secret.txt');
	writeFileSync(outside, 'do not send me\n');
	symlinkSync(outside, join(workspace, 'AGENTS.md'));
	symlinkSync(outside, join(config, 'AGENTS.md'));
	const {files, notices} = await readProjectInstructions({workspace, configDir: config});
	assert.deepEqual(
		files.map(file => file.path),
		[join(config, 'AGENTS.md')],
	);
	assert.equal(notices.length, 3, notices.join('\n'));
	assert.match(notices.find(notice => notice.startsWith(join(repo, 'AGENTS.md')))!, /is a folder, not a file/);
	assert.match(notices.find(notice => notice.startsWith(join(middle, 'AGENTS.md')))!, /not a regular file/);
	assert.match(notices.find(notice => notice.startsWith(join(workspace, 'AGENTS.md')))!, /symbolic link to .*secret\.txt, outside the repository/);

	const other = tree();
	const inside = join(other.repo, 'shared.md');
	writeFileSync(inside, 'shared rule\n');
	symlinkSync(inside, join(other.workspace, 'AGENTS.md'));
	const linked = await readProjectInstructions({workspace: other.workspace, configDir: other.config});
	assert.deepEqual(linked.notices, []);
	assert.equal(linked.files[0]?.text, 'shared rule\n');
});

test('an unreadable file is a notice', {skip: process.getuid?.() === 0 ? 'root reads every file' : false}, async () => {
	const {workspace, config} = tree();
	writeFileSync(join(workspace, 'AGENTS.md'), 'hidden\n', {mode: 0o000});
	const {files, notices} = await readProjectInstructions({workspace, configDir: config});
	assert.deepEqual(files, []);
	assert.match(notices[0]!, /EACCES|permission/i);
});

test('the block goes after the prompt; /reload puts a new one in place of the old one, however the session started', () => {
	const file = (text: string) => ({path: '/r/AGENTS.md', scope: 'project' as const, text, bytes: text.length, cut: false});
	const old = renderInstructionsBlock([file('old rule')]);
	const next = renderInstructionsBlock([file('new rule')]);
	const prompt = withInstructions('You are i.', old);
	assert.equal(prompt, `You are i.\n\n${old}`);
	assert.equal(replaceInstructions(prompt, next, old), `You are i.\n\n${next}`);
	// A resumed session's block is found by its heading.
	assert.equal(replaceInstructions(prompt, next), `You are i.\n\n${next}`);
	assert.equal(replaceInstructions(prompt, ''), 'You are i.');
	assert.equal(replaceInstructions('You are i.', next), `You are i.\n\n${next}`);
	assert.equal(withInstructions('You are i.', ''), 'You are i.');
});

test('CLAUDE.md is read where a folder has no AGENTS.md, global too, in the same order; AGENTS.md wins where both are, even an empty or unusable one', async () => {
	const {repo, middle, workspace, config} = tree();
	writeFileSync(join(config, 'CLAUDE.md'), 'global claude rule\n');
	writeFileSync(join(repo, 'AGENTS.md'), 'root agents rule\n');
	writeFileSync(join(repo, 'CLAUDE.md'), 'root claude rule, not read\n');
	writeFileSync(join(middle, 'CLAUDE.md'), 'middle claude rule\n');
	writeFileSync(join(workspace, 'AGENTS.md'), ' \n');
	writeFileSync(join(workspace, 'CLAUDE.md'), "workspace claude rule, not read: the empty AGENTS.md is the folder's\n");
	const {files, notices} = await readProjectInstructions({workspace, configDir: config});
	assert.deepEqual(notices, []);
	assert.deepEqual(
		files.map(file => [file.path, file.scope, file.text]),
		[
			[join(config, 'CLAUDE.md'), 'global', 'global claude rule\n'],
			[join(repo, 'AGENTS.md'), 'project', 'root agents rule\n'],
			[join(middle, 'CLAUDE.md'), 'project', 'middle claude rule\n'],
		],
	);
	const block = renderInstructionsBlock(files);
	assert.ok(block.includes('AGENTS.md files (CLAUDE.md where a folder has no AGENTS.md)'));
	assert.ok(block.includes(`## ${join(middle, 'CLAUDE.md')}\n\nmiddle claude rule`));
	// A block of AGENTS.md files alone keeps its wording, byte for byte what saved sessions hold.
	assert.ok(renderInstructionsBlock(files.slice(1, 2)).includes('these instructions in AGENTS.md files, given here'));

	// An AGENTS.md that cannot be used is a notice, and the folder's CLAUDE.md does not stand in for it.
	mkdirSync(join(middle, 'AGENTS.md'));
	const refused = await readProjectInstructions({workspace, configDir: config});
	assert.deepEqual(
		refused.files.map(file => file.path),
		[join(config, 'CLAUDE.md'), join(repo, 'AGENTS.md')],
	);
	assert.match(refused.notices.join('\n'), /packages\/AGENTS\.md was not read: it is a folder/);
});

test("a project's CLAUDE.md follows AGENTS.md's rules: cut at 64 KiB, a link out of the repository a notice", async () => {
	const {root, repo, workspace, config} = tree();
	writeFileSync(join(workspace, 'CLAUDE.md'), 'c'.repeat(MAX_INSTRUCTIONS_FILE_BYTES + 1));
	const outside = join(root, 'secret.txt');
	writeFileSync(outside, 'do not send me\n');
	symlinkSync(outside, join(repo, 'CLAUDE.md'));
	const {files, notices} = await readProjectInstructions({workspace, configDir: config});
	assert.equal(files.length, 1);
	assert.equal(files[0]!.cut, true);
	assert.equal(files[0]!.text.length, MAX_INSTRUCTIONS_FILE_BYTES);
	assert.equal(notices.length, 1);
	assert.match(notices[0]!, /CLAUDE\.md was not read: it is a symbolic link to .*secret\.txt, outside the repository/);
});
