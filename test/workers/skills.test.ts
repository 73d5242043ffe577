import assert from 'node:assert/strict';
import {mkdir, symlink, utimes, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test, type TestContext} from 'node:test';
import {SUMMARY_MARKER} from '../../source/core/history/compaction.js';
import {stateFromHistory} from '../../workers/context-snapshot/context-snapshot.js';
import {makeFolders, startOfficialWorker, type Folders, type FrameWorker} from './frame-worker.js';

/** Writes `<root>/<dir>/SKILL.md` with the given front matter lines and body. */
async function writeSkill(root: string, dir: string, frontMatter: string[], body = `Body of ${dir}.\n`): Promise<string> {
	await mkdir(join(root, dir), {recursive: true});
	const file = join(root, dir, 'SKILL.md');
	await writeFile(file, ['---', ...frontMatter, '---', body].join('\n'));
	return file;
}

async function simpleSkill(root: string, name: string, description = `What ${name} does.`): Promise<string> {
	return writeSkill(root, name, [`name: ${name}`, `description: ${description}`]);
}

interface Run {
	folders: Folders;
	worker: FrameWorker;
	/** A request with the workspace and paths of `folders`. */
	send(event: string, data: Record<string, unknown>): Promise<Record<string, any>>;
	/** One before_turn on a fresh history: the skills index as the model sees it, and the warnings the answer carries. */
	turn(): Promise<{index: Record<string, string>; warnings: string[]}>;
	/** The index alone, after a turn that warned of nothing. */
	index(): Promise<Record<string, string>>;
	/** A tool call's output, or throws with its error. */
	tool(name: string, args: Record<string, unknown>): Promise<string>;
	/** A tool call's or hook's error text (fails when it succeeds). */
	error(event: string, data: Record<string, unknown>): Promise<string>;
}

async function start(t: TestContext, options: {args?: string[]; cwd?: string; folders?: Folders} = {}): Promise<Run> {
	const folders = options.folders ?? (await makeFolders(t));
	const worker = startOfficialWorker(t, 'skills', options.args ?? [], {env: folders.env, cwd: options.cwd});
	let id = 0;
	const send = async (event: string, data: Record<string, unknown>) => worker.request({id: ++id, event, workspace: folders.workspace, paths: folders.paths, data});
	const turn = async () => {
		const response = await send('before_turn', {
			messages: [
				{role: 'system', content: 'sys'},
				{role: 'user', content: 'hi'},
			],
		});
		assert.ok(response.data, response.error);
		const added = response.data.messages.slice(2);
		assert.ok(added.length <= 1);
		return {index: added.length === 0 ? {} : snapshotEntries(added[0]), warnings: (response.warnings ?? []) as string[]};
	};

	return {
		folders,
		worker,
		send,
		turn,
		async index() {
			const {index, warnings} = await turn();
			assert.deepEqual(warnings, []);
			return index;
		},
		async tool(name, args) {
			const response = await send('tool', {name, arguments: args});
			assert.ok(response.data, response.error);
			return response.data.output as string;
		},
		async error(event, data) {
			const response = await send(event, data);
			assert.equal(response.data, undefined, `expected an error, got ${JSON.stringify(response.data)?.slice(0, 300)}`);
			return response.error as string;
		},
	};
}

/** The entries of a full skills snapshot message. */
function snapshotEntries(message: any): Record<string, string> {
	assert.deepEqual(message._context, {source: 'skills', kind: 'full'}, `not a full skills snapshot: ${String(message.content).slice(0, 200)}`);
	return stateFromHistory([message], 'skills')!;
}

const turnError = (run: Run) => run.error('before_turn', {messages: [{role: 'user', content: 'hi'}]});

/** One turn's index and its one warning (the turn goes on). */
async function leftOut(run: Run): Promise<{index: Record<string, string>; warning: string}> {
	const {index, warnings} = await run.turn();
	assert.equal(warnings.length, 1, JSON.stringify(warnings));
	return {index, warning: warnings[0]!};
}

test('skills: the default roots are searched and only names, descriptions and sources reach the model', async t => {
	const run = await start(t);
	const {workspace} = run.folders;
	assert.deepEqual(await run.index(), {}, 'no roots: nothing is shown');
	await writeSkill(join(workspace, '.agents/skills'), 'pdf', ['name: pdf', 'description: "Fill PDF forms: fields, checkboxes."'], 'SECRET-BODY-PDF: step one.\n');
	await writeSkill(join(workspace, '.i/skills'), 'release', ['name: release', 'description: >', '  Cut a release', '  of the package.'], 'SECRET-BODY-RELEASE\n');
	// Other entries of a root (files, folders without SKILL.md) are not skills.
	await writeFile(join(workspace, '.i/skills/README.md'), 'not a skill');
	await mkdir(join(workspace, '.i/skills/empty'));
	const index = await run.index();
	assert.deepEqual(index, {
		pdf: 'Fill PDF forms: fields, checkboxes.\nsource: .agents/skills/pdf/SKILL.md',
		release: 'Cut a release of the package.\nsource: .i/skills/release/SKILL.md',
	});

	// The hook only appends: an unchanged index adds nothing on the next turn.
	const first = await run.send('before_turn', {messages: [{role: 'user', content: 'hi'}]});
	assert.doesNotMatch(JSON.stringify(first.data), /SECRET-BODY/);
	const again = await run.send('before_turn', {messages: [...first.data.messages, {role: 'assistant', content: 'ok'}, {role: 'user', content: 'more'}]});
	assert.equal(again.data.messages.length, first.data.messages.length + 2);

	assert.equal(await run.tool('skill_load', {name: 'pdf'}), 'SECRET-BODY-PDF: step one.\n');
	assert.match(await run.error('tool', {name: 'skill_load', arguments: {name: 'nope'}}), /^no skill is named "nope"; the skills are: pdf, release$/);
	assert.match(await run.error('tool', {name: 'skill_load', arguments: {}}), /^skill_load arguments: missing field "name"/);
	const exit = await run.worker.close();
	assert.equal(exit.code, 0, exit.stderr);
});

test('skills: a SKILL.md is read again whenever it changed, also when it was remembered from an earlier turn', async t => {
	const run = await start(t);
	const root = join(run.folders.workspace, '.agents/skills');
	const file = await simpleSkill(root, 'pdf', 'First words.');
	// Settled files (untouched for a while) are remembered between turns.
	const old = new Date(Date.now() - 60_000);
	await utimes(file, old, old);
	assert.equal((await run.index()).pdf, 'First words.\nsource: .agents/skills/pdf/SKILL.md');
	assert.equal((await run.index()).pdf, 'First words.\nsource: .agents/skills/pdf/SKILL.md');
	// Another size, the same old time: read again.
	await simpleSkill(root, 'pdf', 'Second, longer words.');
	await utimes(file, old, old);
	assert.equal((await run.index()).pdf, 'Second, longer words.\nsource: .agents/skills/pdf/SKILL.md');
	// The same size, another time: read again.
	await simpleSkill(root, 'pdf', 'Second, longer WORDS.');
	const older = new Date(Date.now() - 120_000);
	await utimes(file, older, older);
	assert.equal((await run.index()).pdf, 'Second, longer WORDS.\nsource: .agents/skills/pdf/SKILL.md');
	// Broken now: left out and told, not the remembered skill.
	await writeFile(file, '---\nname: pdf\n---\n');
	await utimes(file, old, old);
	const broken = await leftOut(run);
	assert.deepEqual(broken.index, {});
	assert.equal(broken.warning, `${file}: missing required key "description"; the skill is left out`);
	// A recent change is never remembered, so an edit within the clock's granularity is still seen.
	await simpleSkill(root, 'pdf', 'Fresh.');
	assert.equal((await run.index()).pdf, 'Fresh.\nsource: .agents/skills/pdf/SKILL.md');
	await simpleSkill(root, 'pdf', 'FRESH.');
	assert.equal((await run.index()).pdf, 'FRESH.\nsource: .agents/skills/pdf/SKILL.md');
});

test('skills: an external root is searched only when skills.json names it, relative to that file, not to the cwd', async t => {
	const folders = await makeFolders(t);
	const external = join(folders.root, 'shared', 'skills');
	await simpleSkill(external, 'lint');
	await mkdir(join(folders.root, 'conf', 'sub'), {recursive: true});
	await writeFile(join(folders.root, 'conf', 'sub', 'my-skills.json'), JSON.stringify({roots: ['../../shared/skills']}));
	const without = await start(t, {folders});
	assert.deepEqual(await without.index(), {}, 'not configured: not searched');

	// --config resolves against the worker's cwd; the root inside it against the config file's folder.
	const run = await start(t, {folders, args: ['--config', 'sub/my-skills.json'], cwd: join(folders.root, 'conf')});
	assert.deepEqual(await run.index(), {lint: `What lint does.\nsource: ${join(external, 'lint', 'SKILL.md')}`});
	assert.equal(await run.tool('skill_load', {name: 'lint'}), 'Body of lint.\n');

	// <config_dir>/skills.json with an absolute root; a configured root that is missing is told and left out.
	await writeFile(join(folders.config, 'skills.json'), JSON.stringify({roots: [external, 'missing']}));
	const configured = await start(t, {folders});
	assert.deepEqual(await leftOut(configured), {
		index: {lint: `What lint does.\nsource: ${join(external, 'lint', 'SKILL.md')}`},
		warning: `skills root from ${join(folders.config, 'skills.json')} ${join(folders.config, 'missing')} does not exist; the root is left out`,
	});
	// The module's own config is no resource: a bad one still fails the turn.
	await writeFile(join(folders.config, 'skills.json'), JSON.stringify({roots: ['../shared/skills'], extra: 1}));
	const bad = await start(t, {folders});
	assert.match(await turnError(bad), /skills config .*skills\.json: unknown field "extra"/);
});

test('skills: 100 skills in a root pass; with 101 the root is left out and named', async t => {
	const run = await start(t);
	const root = join(run.folders.workspace, '.agents/skills');
	for (let n = 0; n < 100; n++) await simpleSkill(root, `s${String(n).padStart(3, '0')}`, 'x');
	assert.equal(Object.keys(await run.index()).length, 100);
	await simpleSkill(root, 's100', 'x');
	assert.deepEqual(await leftOut(run), {index: {}, warning: `skills default root ${root} has 101 skills; a root may have at most 100 (split them into several roots); the root is left out`});
	assert.match(await run.error('tool', {name: 'skill_load', arguments: {name: 's001'}}), /^no skill is named "s001"; no skills were found$/);
});

test('skills: 1000 entries in a root pass; with 1001 the root is left out and named', async t => {
	const run = await start(t);
	const root = join(run.folders.workspace, '.i/skills');
	await simpleSkill(root, 'one');
	await Promise.all(Array.from({length: 999}, async (_, n) => writeFile(join(root, `file-${n}`), '')));
	assert.deepEqual(Object.keys(await run.index()), ['one']);
	await writeFile(join(root, 'file-999'), '');
	assert.deepEqual(await leftOut(run), {index: {}, warning: `skills default root ${root} has more than 1000 entries; a root may have at most 1000 (keep only skill folders in it); the root is left out`});
});

test('skills: a SKILL.md of 64000 bytes passes; one of 64001 is left out and named', async t => {
	const run = await start(t);
	const root = join(run.folders.workspace, '.agents/skills');
	const head = '---\nname: big\ndescription: big one\n---\n';
	await mkdir(join(root, 'big'), {recursive: true});
	const file = join(root, 'big', 'SKILL.md');
	await writeFile(file, head + 'b'.repeat(64_000 - head.length));
	assert.equal((await run.tool('skill_load', {name: 'big'})).length, 64_000 - head.length);
	await writeFile(file, head + 'b'.repeat(64_001 - head.length));
	assert.deepEqual(await leftOut(run), {index: {}, warning: `${file} is 64001 bytes; a skill file may have at most 64000; the skill is left out`});
});

test('skills: name of 64 characters passes, 65 or a bad character is left out; description 1024 passes, 1025 is left out; each problem told once', async t => {
	const run = await start(t);
	const root = join(run.folders.workspace, '.agents/skills');
	const file = await simpleSkill(root, 'a', 'x');
	const set = async (name: string, description: string) => writeFile(file, `---\nname: ${name}\ndescription: ${description}\n---\nbody\n`);
	const name64 = 'N'.repeat(60) + 'a_-9';
	await set(name64, 'é'.repeat(1024));
	assert.deepEqual(Object.keys(await run.index()), [name64]);
	const nameRule = 'must be 1–64 characters, each an ASCII letter, digit, "-" or "_"';
	await set(name64 + 'x', 'ok');
	assert.deepEqual(await leftOut(run), {index: {}, warning: `${file}: "name" (line 2) ${nameRule}; the skill is left out`});
	// The same problem, however the name is wrong: left out each turn, told no more.
	for (const bad of ['has.dot', 'sp"ace"', 'ünï', '"a/b"']) {
		await set(bad, 'ok');
		assert.deepEqual(await run.turn(), {index: {}, warnings: []}, bad);
	}

	await set('a', 'é'.repeat(1025));
	assert.deepEqual(await leftOut(run), {index: {}, warning: `${file}: "description" (line 3) must have at most 1024 characters; the skill is left out`});
	await set('a', '""');
	assert.deepEqual(await leftOut(run), {index: {}, warning: `${file}: "description" (line 3) must not be empty; the skill is left out`});
	// Fixed, then broken the same way again: told again.
	await set('a', 'ok');
	assert.deepEqual(Object.keys(await run.index()), ['a']);
	await set('a', '""');
	assert.equal((await leftOut(run)).warning, `${file}: "description" (line 3) must not be empty; the skill is left out`);
});

test("skills: without the host's folders .claude/skills and .pi/skills are default roots too, after .i/skills; one folder linked into two roots is one skill", async t => {
	const run = await start(t);
	const {workspace} = run.folders;
	await writeSkill(join(workspace, '.claude/skills'), 'claude', ['name: claude', 'description: From Claude Code.']);
	await writeSkill(join(workspace, '.pi/skills'), 'pi', ['name: pi', 'description: From pi.']);
	await writeSkill(join(workspace, '.agents/skills'), 'shared', ['name: shared', 'description: Linked.']);
	await symlink(join(workspace, '.agents/skills/shared'), join(workspace, '.claude/skills/shared'));
	assert.deepEqual(await run.index(), {
		claude: 'From Claude Code.\nsource: .claude/skills/claude/SKILL.md',
		pi: 'From pi.\nsource: .pi/skills/pi/SKILL.md',
		shared: 'Linked.\nsource: .agents/skills/shared/SKILL.md',
	});
	// A copy (another folder) of the same name is a second skill of that name: the first found is used, the copy named.
	const copy = await writeSkill(join(workspace, '.pi/skills'), 'copy', ['name: claude', 'description: d']);
	const shadowed = await leftOut(run);
	assert.equal(shadowed.index.claude, 'From Claude Code.\nsource: .claude/skills/claude/SKILL.md');
	assert.equal(shadowed.warning, `skill "claude" of ${copy} is not used: ${join(workspace, '.claude/skills/claude/SKILL.md')} has the same name and was found first (rename one to use both)`);
});

test('skills: of two skills of one name, within a root or across roots, the first found is used and the other named once', async t => {
	const run = await start(t);
	const {workspace} = run.folders;
	const first = await writeSkill(join(workspace, '.agents/skills'), 'one', ['name: same', 'description: first'], 'FIRST BODY\n');
	const second = await writeSkill(join(workspace, '.agents/skills'), 'two', ['name: same', 'description: second'], 'SECOND BODY\n');
	const shadow = (other: string) => `skill "same" of ${other} is not used: ${first} has the same name and was found first (rename one to use both)`;
	assert.deepEqual(await leftOut(run), {index: {same: 'first\nsource: .agents/skills/one/SKILL.md'}, warning: shadow(second)});
	assert.deepEqual(await run.turn(), {index: {same: 'first\nsource: .agents/skills/one/SKILL.md'}, warnings: []}, 'told once');
	// One folder linked twice into one root is one skill, not a second of its name.
	await symlink(join(workspace, '.agents/skills/one'), join(workspace, '.agents/skills/one-again'));
	await symlink(join(workspace, '.agents/skills/one'), join(workspace, '.agents/skills/one-more'));
	assert.deepEqual(await run.turn(), {index: {same: 'first\nsource: .agents/skills/one/SKILL.md'}, warnings: []});
	assert.equal(await run.tool('skill_load', {name: 'same'}), 'FIRST BODY\n');
	await writeSkill(join(workspace, '.agents/skills'), 'two', ['name: other', 'description: d']);
	assert.deepEqual(Object.keys(await run.index()), ['other', 'same']);
	// .agents/skills comes before .i/skills.
	const third = await writeSkill(join(workspace, '.i/skills'), 'three', ['name: same', 'description: third']);
	assert.equal((await leftOut(run)).warning, shadow(third));
});

test('skills: a broken SKILL.md beside a good one: the good one is shown, the broken one named once; at most 16 told an answer, the rest with the next', async t => {
	const run = await start(t);
	const root = join(run.folders.workspace, '.agents/skills');
	await simpleSkill(root, 'good');
	const broken = await writeSkill(root, 'broken', ['name: broken', 'description: "unclosed']);
	const first = await leftOut(run);
	assert.deepEqual(first.index, {good: 'What good does.\nsource: .agents/skills/good/SKILL.md'});
	assert.match(first.warning, new RegExp(`^${broken} line 3: the front matter is not valid YAML: Missing closing "quote.*; the skill is left out$`));
	assert.deepEqual(await run.turn(), {index: first.index, warnings: []});
	assert.equal(await run.tool('skill_load', {name: 'good'}), 'Body of good.\n');
	for (let n = 0; n < 20; n++) await writeSkill(root, `bad-${String(n).padStart(2, '0')}`, [`name: bad ${n}`, 'description: d']);
	const many = await run.turn();
	assert.equal(many.warnings.length, 16);
	assert.deepEqual(many.index, first.index);
	const rest = await run.turn();
	assert.deepEqual(
		rest.warnings,
		Array.from({length: 4}, (_, n) => `${join(root, `bad-${16 + n}`, 'SKILL.md')}: "name" (line 2) must be 1–64 characters, each an ASCII letter, digit, "-" or "_"; the skill is left out`),
	);
});

test('skills: front matter that cannot be used is named with the file, the line and the rule, and the skill left out', async t => {
	const run = await start(t);
	const root = join(run.folders.workspace, '.agents/skills');
	await simpleSkill(root, 'good');
	await mkdir(join(root, 'x'), {recursive: true});
	const file = join(root, 'x', 'SKILL.md');
	const cases: Array<[string, string]> = [
		['# Just markdown\n', ' line 1: a SKILL.md must start with YAML front matter'],
		['---\nname: x\ndescription: d\n', ' line 1: the front matter opened by "---" is never closed'],
		['---\ndescription: d\n---\n', ': missing required key "name"'],
		['---\nname: x\n---\n', ': missing required key "description"'],
		['---\nname: 123\ndescription: d\n---\n', ': "name" (line 2) must be text, got a number (123)'],
		['---\nname: x\ndescription: [a, b]\n---\n', ': "description" (line 3) must be text, got a list'],
		['---\nname: x\ndescription: true\n---\n', ': "description" (line 3) must be text, got a boolean (true)'],
		['---\nname: x\ndescription: "unclosed\n---\n', ' line 3: the front matter is not valid YAML: Missing closing "quote'],
		['---\nname: x\nname: y\ndescription: d\n---\n', ' line 3: the front matter is not valid YAML: Map keys must be unique'],
		['---\nname: x\ndescription: a: b\n---\n', ' line 3: the front matter is not valid YAML: Nested mappings are not allowed in compact mappings'],
		['---\nname: !!js/function x\ndescription: d\n---\n', ' line 2: the front matter is not valid YAML: Unresolved tag'],
		['---\n- name\n---\n', ': the front matter must be a map of "key: value" lines, not a list'],
	];
	for (const [text, message] of cases) {
		await writeFile(file, text);
		const {index, warning} = await leftOut(run);
		assert.deepEqual(Object.keys(index), ['good'], 'the others are shown');
		assert.ok(warning.startsWith(`${file}${message}`), `${JSON.stringify(text)}: ${warning}`);
		assert.ok(warning.endsWith('; the skill is left out'), warning);
	}
});

test('skills: front matter keys i does not use are accepted whatever they hold (Claude Code skills: allowed-tools, nested metadata, version)', async t => {
	const run = await start(t);
	const root = join(run.folders.workspace, '.agents/skills');
	await writeSkill(
		root,
		'full',
		[
			'# a comment',
			'name: full',
			"description: 'It''s complete' # trailing comment",
			'license: Apache-2.0',
			'compatibility: "Needs \\"git\\" and python3"',
			'allowed-tools: [shell, "read"]',
			'metadata:',
			'  author: someone',
			'  version: "1.0"',
		],
		'Body.\n',
	);
	await writeSkill(root, 'listed', ['name: listed', 'description: |-', '  Line one', '  line two', 'allowed-tools:', '  - shell', '  - read']);
	await writeSkill(root, 'claude', [
		'name: claude',
		'description: >',
		'  Folded over',
		'  two lines.',
		'allowed-tools: Bash(git:*), Read',
		'version: 2',
		'license: ~',
		'metadata:',
		'  owner: {team: tools, contact: [a, b]}',
		'  tags:',
		'    - one',
	]);
	assert.deepEqual(await run.index(), {
		claude: 'Folded over two lines.\nsource: .agents/skills/claude/SKILL.md',
		full: "It's complete\nsource: .agents/skills/full/SKILL.md",
		listed: 'Line one\nline two\nsource: .agents/skills/listed/SKILL.md',
	});
});

test('skill_read: files inside the skill folder are read; every escape is refused with a clear error', async t => {
	const run = await start(t);
	const {root, workspace} = run.folders;
	const skills = join(workspace, '.agents/skills');
	const folder = join(skills, 'kit');
	await writeSkill(skills, 'kit', ['name: kit', 'description: d']);
	await writeSkill(skills, 'other', ['name: other', 'description: d']);
	await mkdir(join(folder, 'reference'));
	await writeFile(join(folder, 'reference', 'forms.md'), 'FORMS');
	await writeFile(join(folder, 'run.sh'), '#!/bin/sh\ntouch "$HOME/ran"\n', {mode: 0o755});
	await writeFile(join(folder, 'inside-target.md'), 'TARGET');
	await symlink(join(folder, 'inside-target.md'), join(folder, 'inside-link.md'));
	await writeFile(join(root, 'secret.txt'), 'OUTSIDE');
	await mkdir(join(root, 'outside-dir'));
	await writeFile(join(root, 'outside-dir', 'x.md'), 'OUTSIDE DIR');
	await symlink(join(root, 'secret.txt'), join(folder, 'link-out.md'));
	await symlink(join(root, 'outside-dir'), join(folder, 'dir-out'));
	await symlink('../../', join(folder, 'reference', 'up'));
	await writeFile(join(folder, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
	await writeFile(join(folder, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
	await writeFile(join(folder, 'limit.txt'), 'l'.repeat(64_000));
	await writeFile(join(folder, 'over.txt'), 'o'.repeat(64_001));

	const read = async (path: string) => run.tool('skill_read', {name: 'kit', path});
	const refused = async (path: string) => run.error('tool', {name: 'skill_read', arguments: {name: 'kit', path}});
	assert.equal(await read('reference/forms.md'), 'FORMS');
	assert.equal(await read('./reference/forms.md'), 'FORMS');
	assert.equal(await read('inside-link.md'), 'TARGET', 'a symlink that stays inside is fine');
	assert.match(await read('SKILL.md'), /^---\nname: kit/);
	// A script is data: it is returned as text and never run.
	assert.equal(await read('run.sh'), '#!/bin/sh\ntouch "$HOME/ran"\n');
	assert.equal((await read('limit.txt')).length, 64_000);

	assert.equal(await refused('../x'), '"../x" contains ".."; a skill\'s files are read only from inside its folder');
	assert.equal(await refused('a/../../x'), '"a/../../x" contains ".."; a skill\'s files are read only from inside its folder');
	assert.equal(await refused('reference/../SKILL.md'), '"reference/../SKILL.md" contains ".."; a skill\'s files are read only from inside its folder');
	assert.equal(await refused('/etc/passwd'), '"/etc/passwd" is absolute; name a file relative to the skill\'s folder');
	assert.equal(await refused('link-out.md'), `"link-out.md" is a symlink (or passes through one) that resolves outside the skill's folder, to ${join(root, 'secret.txt')}`);
	assert.equal(await refused('dir-out/x.md'), `"dir-out/x.md" is a symlink (or passes through one) that resolves outside the skill's folder, to ${join(root, 'outside-dir', 'x.md')}`);
	// Containment is decided on the real path: up and back into the same folder is inside, into a sibling skill is not.
	assert.match(await read('reference/up/kit/SKILL.md'), /^---\nname: kit/);
	assert.equal(
		await refused('reference/up/other/SKILL.md'),
		`"reference/up/other/SKILL.md" is a symlink (or passes through one) that resolves outside the skill's folder, to ${join(skills, 'other', 'SKILL.md')}`,
	);
	assert.equal(await refused('reference/forms.md\0.txt'), 'the path contains a NUL byte');
	assert.equal(await refused(''), "the path is empty; name a file relative to the skill's folder");
	assert.equal(await refused('reference'), '"reference" of skill "kit" is a folder, not a file');
	assert.equal(await refused('.'), '"." of skill "kit" is a folder, not a file');
	assert.equal(await refused('image.png'), '"image.png" of skill "kit" is a binary file (it has NUL bytes); only text files can be read');
	assert.equal(await refused('latin1.txt'), '"latin1.txt" of skill "kit" is a binary file (not valid UTF-8); only text files can be read');
	assert.equal(await refused('over.txt'), '"over.txt" of skill "kit" is 64001 bytes; a skill file may have at most 64000');
	assert.equal(await refused('missing.md'), '"missing.md" does not exist in the skill\'s folder');
	assert.match(await run.error('tool', {name: 'skill_read', arguments: {name: 'kit', path: 'x', extra: 1}}), /^skill_read arguments: unknown field "extra"/);
	assert.match(await run.error('tool', {name: 'skill_read', arguments: {name: 'nope', path: 'x'}}), /^no skill is named "nope"/);
	const exit = await run.worker.close();
	assert.equal(exit.code, 0, exit.stderr);
});

test('skills: a SKILL.md symlinked to outside its folder is refused; a symlinked skill folder is a skill', async t => {
	const run = await start(t);
	const {root, workspace} = run.folders;
	const skills = join(workspace, '.agents/skills');
	await simpleSkill(join(root, 'elsewhere'), 'linked');
	await mkdir(skills, {recursive: true});
	await symlink(join(root, 'elsewhere', 'linked'), join(skills, 'linked'));
	assert.deepEqual(await run.index(), {linked: 'What linked does.\nsource: .agents/skills/linked/SKILL.md'});
	await mkdir(join(skills, 'sneaky'));
	await writeFile(join(root, 'elsewhere', 'outside.md'), '---\nname: sneaky\ndescription: d\n---\n');
	await symlink(join(root, 'elsewhere', 'outside.md'), join(skills, 'sneaky', 'SKILL.md'));
	const {index, warning} = await leftOut(run);
	assert.deepEqual(Object.keys(index), ['linked']);
	assert.match(warning, new RegExp(`^${join(skills, 'sneaky', 'SKILL.md')}: "SKILL.md" is a symlink .* outside the skill's folder.*; the skill is left out$`));
});

test('skills: before_compact_commit restores the index snapshot a compaction summarised away', async t => {
	const run = await start(t);
	await simpleSkill(join(run.folders.workspace, '.agents/skills'), 'pdf');
	const summary = {role: 'user', content: 'Summary of the earlier conversation', [SUMMARY_MARKER]: true};
	const candidate = [{role: 'system', content: 'sys'}, summary, {role: 'user', content: 'next'}];
	const response = await run.send('before_compact_commit', {messages: candidate});
	assert.ok(response.data, response.error);
	const messages = response.data.messages;
	assert.equal(messages.length, 4);
	assert.deepEqual(messages[0], candidate[0]);
	assert.deepEqual(messages[1], summary);
	assert.deepEqual(snapshotEntries(messages[2]), {pdf: 'What pdf does.\nsource: .agents/skills/pdf/SKILL.md'});
	assert.deepEqual(messages[3], candidate[2]);
	// A candidate that still holds the snapshot is returned unchanged.
	const again = await run.send('before_compact_commit', {messages});
	assert.deepEqual(again.data.messages, messages);
});

test("skills: the request's resources replace the default roots, searched in their order; a missing folder is skipped, a file is left out and named with where it came from", async t => {
	const folders = await makeFolders(t);
	const worker = startOfficialWorker(t, 'skills', [], {env: folders.env});
	const {workspace} = folders;
	await simpleSkill(join(workspace, '.i/skills'), 'own');
	await simpleSkill(join(folders.root, 'flagged'), 'flagged');
	await writeFile(join(folders.root, 'a-file'), 'not a folder');
	const history = {messages: [{role: 'user', content: 'hi'}]};
	const ask = async (skills: Array<{path: string; origin: string}>) => worker.request({id: 1, event: 'before_turn', workspace, paths: folders.paths, resources: {skills}, data: history});
	const names = (response: Record<string, any>) => Object.keys(stateFromHistory(response.data.messages.slice(1), 'skills') ?? {});

	// The host's list, not the defaults: the workspace's own folders count only when it names them.
	assert.deepEqual(names(await ask([{path: join(folders.root, 'flagged'), origin: '--skill'}])), ['flagged']);
	assert.deepEqual(
		names(
			await ask([
				{path: join(folders.root, 'not-built-yet'), origin: 'settings /s.json'},
				{path: join(workspace, '.i/skills'), origin: 'the workspace'},
				{path: join(folders.root, 'flagged'), origin: '--skill'},
			]),
		),
		['flagged', 'own'],
	);
	// The index is sorted by name; the order of the roots shows when a name is used twice: the earlier root's skill is used.
	await simpleSkill(join(folders.root, 'second'), 'own', 'The second root.');
	const twice = await ask([
		{path: join(folders.root, 'second'), origin: 'extension todo'},
		{path: join(workspace, '.i/skills'), origin: 'the workspace'},
	]);
	assert.deepEqual(stateFromHistory(twice.data.messages.slice(1), 'skills'), {own: `The second root.\nsource: ${join(folders.root, 'second', 'own', 'SKILL.md')}`});
	assert.deepEqual(twice.warnings, [
		`skill "own" of ${join(workspace, '.i/skills', 'own', 'SKILL.md')} is not used: ${join(folders.root, 'second', 'own', 'SKILL.md')} has the same name and was found first (rename one to use both)`,
	]);
	assert.equal((await ask([])).data.messages.length, 1, 'an empty list: no roots, no index');
	const failed = await ask([{path: join(folders.root, 'a-file'), origin: 'extension todo'}]);
	assert.equal(failed.data.messages.length, 1);
	assert.deepEqual(failed.warnings, [`skills folder (from extension todo) ${join(folders.root, 'a-file')} is not a folder; the root is left out`]);
	const bad = await worker.request({id: 2, event: 'before_turn', workspace, paths: folders.paths, resources: {skills: [{path: 'relative', origin: 'x'}]}, data: history});
	assert.match(bad.error, /^field "resources": field "skills\.0\.path": must be an absolute path/);
	await worker.close();
});
