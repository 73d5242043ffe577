import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/** The `skills` profile alone, with a "deploy" skill in the workspace's .agents/skills holding a script and a reference file. */
function skillsBox(): Sandbox & {skill: string} {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'builtin.json'), JSON.stringify({builtin_profile: 'skills', tools: []}));
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0, plugins: ['builtin.json']});
	const skill = join(box.workspace, '.agents', 'skills', 'deploy');
	mkdirSync(join(skill, 'scripts'), {recursive: true});
	writeFileSync(join(skill, 'SKILL.md'), '---\nname: deploy\ndescription: Deploy the site to staging.\nallowed-tools: [shell]\n---\nBODY-MARKER: run scripts/deploy.sh, then check reference.md.\n');
	writeFileSync(join(skill, 'reference.md'), 'REFERENCE TEXT');
	writeFileSync(join(skill, 'scripts', 'deploy.sh'), `#!/bin/sh\ntouch "${join(box.root, 'deployed')}"\n`, {mode: 0o755});
	return Object.assign(box, {skill});
}

/** The skills context messages of a request body, each as its kind and JSON body, read from the wire text. */
function skillSnapshots(body: any): Array<{kind: string; body: any}> {
	return body.messages
		.filter((message: any) => typeof message.content === 'string' && message.content.includes('<context source="skills"'))
		.map((message: any) => {
			const match = /<context source="skills" kind="(full|delta)" trust="untrusted">\n(.*)\n<\/context>$/s.exec(message.content);
			assert.ok(match, message.content);
			return {kind: match[1]!, body: JSON.parse(match[2]!)};
		});
}

test('the skills profile: the request carries the index (name, description, source; no body) and the two skill tools', async () => {
	const box = skillsBox();
	mock.enqueue({text: 'hello'});
	const sent = mock.requests.length;
	const run = await runCli(['-p', 'what skills do you have?', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const body = mock.requests[sent]!.body;
	assert.deepEqual(skillSnapshots(body), [{kind: 'full', body: {entries: {deploy: 'Deploy the site to staging.\nsource: .agents/skills/deploy/SKILL.md'}}}]);
	assert.doesNotMatch(JSON.stringify(body), /BODY-MARKER|REFERENCE TEXT/, 'no body or file content is injected');
	assert.doesNotMatch(body.messages[0].content, /<context source="skills"/, 'the index is never spliced into the system prompt');
	const tools = body.tools.map((tool: any) => tool.function.name);
	for (const name of ['skill_load', 'skill_read']) assert.ok(tools.includes(name), `${name} in ${tools.join(', ')}`);
});

test('skill_load is an external tool: denied in print mode without --yolo, returns the body with it; skill_read never runs a script', async () => {
	const box = skillsBox();
	const load = {id: 'l1', name: 'skill_load', arguments: JSON.stringify({name: 'deploy'})};
	mock.enqueue({toolCalls: [load]}, {text: 'ok'});
	let sent = mock.requests.length;
	let run = await runCli(['-p', 'deploy please', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stderr, /not run: .*skill_load/);
	let result = mock.requests[sent + 1]!.body.messages.find((message: any) => message.role === 'tool');
	assert.match(result.content, /approval was denied/);
	assert.doesNotMatch(result.content, /BODY-MARKER/);

	mock.enqueue({toolCalls: [load]}, {text: 'ok'});
	sent = mock.requests.length;
	run = await runCli(['-p', 'deploy please', '--yolo', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	result = mock.requests[sent + 1]!.body.messages.find((message: any) => message.role === 'tool');
	assert.equal(result.content, 'BODY-MARKER: run scripts/deploy.sh, then check reference.md.\n');

	const reads = [
		{id: 'r1', name: 'skill_read', arguments: JSON.stringify({name: 'deploy', path: 'scripts/deploy.sh'})},
		{id: 'r2', name: 'skill_read', arguments: JSON.stringify({name: 'deploy', path: '../../../config/config.json'})},
	];
	mock.enqueue({toolCalls: reads}, {text: 'ok'});
	sent = mock.requests.length;
	run = await runCli(['-p', 'show me the script', '--yolo', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const results = mock.requests[sent + 1]!.body.messages.filter((message: any) => message.role === 'tool');
	assert.match(results[0].content, /^#!\/bin\/sh\ntouch /);
	assert.match(results[1].content, /contains "\.\."; a skill's files are read only from inside its folder/);
	assert.doesNotMatch(results[1].content, /TEST_API_KEY/);
	assert.equal(existsSync(join(box.root, 'deployed')), false, 'reading or loading a skill never runs its scripts');
});

test('a Claude Code SKILL.md (folded description, allowed-tools, nested metadata) is shown and loaded in a turn', async () => {
	const box = skillsBox();
	const folder = join(box.workspace, '.claude', 'skills', 'pdf-forms');
	mkdirSync(folder, {recursive: true});
	writeFileSync(
		join(folder, 'SKILL.md'),
		[
			'---',
			'name: pdf-forms',
			'description: >',
			'  Fill PDF forms and extract their fields.',
			'  Use when the user mentions a PDF form.',
			'allowed-tools: Bash(python3:*), Read, Write',
			'license: Complete terms in LICENSE.txt',
			'version: 1.0.2',
			'metadata:',
			'  author: "Example Team"',
			'  tags: [pdf, forms]',
			'  requires:',
			'    python: ">=3.10"',
			'    packages:',
			'      - pypdf',
			'---',
			'',
			'PDF-FORMS-BODY: run `python3 scripts/fill.py`.',
		].join('\n'),
	);
	mock.enqueue({toolCalls: [{id: 'l1', name: 'skill_load', arguments: JSON.stringify({name: 'pdf-forms'})}]}, {text: 'done'});
	const sent = mock.requests.length;
	const run = await runCli(['-p', 'fill the form', '--yolo', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.doesNotMatch(run.stderr, /warning/);
	assert.deepEqual(skillSnapshots(mock.requests[sent]!.body)[0]!.body.entries, {
		deploy: 'Deploy the site to staging.\nsource: .agents/skills/deploy/SKILL.md',
		'pdf-forms': 'Fill PDF forms and extract their fields. Use when the user mentions a PDF form.\nsource: .claude/skills/pdf-forms/SKILL.md',
	});
	const result = mock.requests[sent + 1]!.body.messages.find((message: any) => message.role === 'tool');
	assert.equal(result.content, 'PDF-FORMS-BODY: run `python3 scripts/fill.py`.');
});

/** The lines of stderr that are `i`'s warnings. */
const warnings = (stderr: string) => stderr.split('\n').filter(line => line.startsWith('i: warning: '));

test('two skills of one name in two roots: the first found is used, the other named once over two turns, exit 0', async () => {
	const box = skillsBox();
	const other = join(box.workspace, '.i', 'skills', 'deploy2');
	mkdirSync(other, {recursive: true});
	writeFileSync(join(other, 'SKILL.md'), '---\nname: deploy\ndescription: Another one.\n---\nOTHER BODY\n');
	mock.enqueue({text: 'one'}, {toolCalls: [{id: 'l1', name: 'skill_load', arguments: JSON.stringify({name: 'deploy'})}]}, {text: 'two'});
	const sent = mock.requests.length;
	// Line mode: two turns in one process.
	const run = await runCli(['--yolo', '-C', box.workspace], {env: box.env, input: 'first\nsecond\n'});
	assert.equal(run.code, 0, run.stderr);
	assert.deepEqual(warnings(run.stderr), [
		`i: warning: the skills module: skill "deploy" of ${join(other, 'SKILL.md')} is not used: ${join(box.skill, 'SKILL.md')} has the same name and was found first (rename one to use both)`,
	]);
	assert.deepEqual(skillSnapshots(mock.requests[sent]!.body)[0]!.body.entries, {deploy: 'Deploy the site to staging.\nsource: .agents/skills/deploy/SKILL.md'});
	const loaded = mock.requests[sent + 2]!.body.messages.filter((message: any) => message.role === 'tool');
	assert.match(loaded.at(-1).content, /^BODY-MARKER/, 'the first found is the one loaded');
});

test('a broken SKILL.md beside a good one: the good one is used, the broken one named once, exit 0; an alias bomb is refused the same way', async () => {
	const box = skillsBox();
	const broken = join(box.workspace, '.agents', 'skills', 'broken');
	mkdirSync(broken);
	writeFileSync(join(broken, 'SKILL.md'), '---\nname: broken\ndescription: "never closed\n---\nbody\n');
	const bomb = join(box.workspace, '.agents', 'skills', 'bomb');
	mkdirSync(bomb);
	const levels = ['a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
	for (const [name, previous] of [...'bcdefghi'].map((name, index) => [name, 'abcdefgh'[index]!])) levels.push(`${name}: &${name} [${Array.from({length: 9}, () => `*${previous}`).join(', ')}]`);
	writeFileSync(join(bomb, 'SKILL.md'), ['---', 'name: bomb', 'description: lots of laughs', ...levels, '---', 'body'].join('\n'));
	mock.enqueue({text: 'one'}, {text: 'two'});
	const sent = mock.requests.length;
	const run = await runCli(['-C', box.workspace], {env: box.env, input: 'first\nsecond\n'});
	assert.equal(run.code, 0, run.stderr);
	assert.deepEqual(warnings(run.stderr), [
		`i: warning: the skills module: ${join(bomb, 'SKILL.md')}: its aliases expand past 100 nodes (an alias bomb?); write the values out; the skill is left out`,
		`i: warning: the skills module: ${join(broken, 'SKILL.md')} line 3: the front matter is not valid YAML: Missing closing "quote; the skill is left out`,
	]);
	for (const request of mock.requests.slice(sent)) {
		assert.deepEqual(Object.keys(skillSnapshots(request.body)[0]!.body.entries), ['deploy'], 'both turns go on with the good skill');
	}
});
