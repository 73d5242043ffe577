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

test('a skills problem fails the turn with an error naming the files, and nothing is sent', async () => {
	const box = skillsBox();
	const other = join(box.workspace, '.i', 'skills', 'deploy2');
	mkdirSync(other, {recursive: true});
	writeFileSync(join(other, 'SKILL.md'), '---\nname: deploy\ndescription: Another one.\n---\n');
	const sent = mock.requests.length;
	const run = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 1);
	assert.ok(run.stderr.includes(`skill name "deploy" is used twice: by ${join(box.skill, 'SKILL.md')} and by ${join(other, 'SKILL.md')}`), run.stderr);
	assert.equal(mock.requests.length, sent, 'nothing was sent');
});
