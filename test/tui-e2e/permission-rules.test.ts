import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {setTimeout as sleep} from 'node:timers/promises';
import {join} from 'node:path';
import {TYPEAHEAD_GUARD_MS} from '../../components/Approval.js';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox} from '../helpers/cli.js';
import {startChat, toolResults} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

test('the chat screen: an allow rule runs a command without a question, a deny rule refuses an edit and shows the rule', async () => {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'settings.json'), JSON.stringify({permissions: {allow: ['shell(touch allowed.txt)'], deny: ['edit(notes.txt)']}}));
	const {run} = await startChat(mock, {box});
	try {
		const notes = join(box.workspace, 'notes.txt');
		writeFileSync(notes, 'hello old world\n');
		const sent = mock.requests.length;
		mock.enqueue(
			{
				toolCalls: [
					{id: 's1', name: 'shell', arguments: JSON.stringify({command: 'touch allowed.txt'})},
					{id: 'e1', name: 'edit', arguments: JSON.stringify({path: 'notes.txt', old_text: 'old', new_text: 'new'})},
				],
			},
			{text: 'One ran, one was refused.'},
		);
		run.type('go\r');
		await run.waitFor(screen => screen.includes('One ran, one was refused.'), 'the second answer');
		assert.ok(!run.screen().some(row => row.includes('Allow?')), 'nothing was asked');
		assert.ok(existsSync(join(box.workspace, 'allowed.txt')));
		assert.equal(readFileSync(notes, 'utf8'), 'hello old world\n');
		assert.ok(run.screen().join('\n').includes('denied by the permission rule "edit(notes.txt)"'), run.screen().join('\n'));
		const results = toolResults(mock.requests[sent + 1]!.body);
		assert.match(results.get('e1') ?? '', /denied by the permission rule "edit\(notes\.txt\)"/);
		assert.doesNotMatch(results.get('s1') ?? '', /not run/);
	} finally {
		await run.close();
	}
});

test('the chat screen: a rule that cannot be used is a notice naming it, the screen starts, and its file allows nothing', async () => {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'settings.json'), JSON.stringify({permissions: {allow: ['shell(touch x.txt)', 'shel(ls)']}}));
	const {run} = await startChat(mock, {box});
	try {
		await run.waitFor(screen => screen.includes('shel(ls)') && screen.includes('unknown tool'), 'the notice');
		mock.enqueue({toolCalls: [{id: 's1', name: 'shell', arguments: JSON.stringify({command: 'touch x.txt'})}]}, {text: 'done'});
		run.type('go\r');
		await run.waitFor(screen => screen.includes('Allow? Run: touch x.txt'), 'the question the broken rules no longer answer');
		assert.equal(existsSync(join(box.workspace, 'x.txt')), false);
	} finally {
		await run.close();
	}
});

// The tests below have their own provider: a reply an earlier test left queued would answer their first message.
test('/permissions lists each rule with its file, and marks a project allow rule that does not count in a workspace that is not trusted', async () => {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'settings.json'), JSON.stringify({permissions: {deny: ['shell(rm *)']}}));
	mkdirSync(join(box.workspace, '.i'));
	writeFileSync(join(box.workspace, '.i', 'settings.local.json'), JSON.stringify({permissions: {allow: ['shell(ls)']}}));
	const own = await startMockProvider();
	const {run} = await startChat(own, {box, ready: false});
	try {
		await run.waitFor(screen => screen.includes('Trust this workspace?') && screen.includes('allow shell(ls) (.i/settings.local.json)'), 'the trust question');
		await sleep(TYPEAHEAD_GUARD_MS + 150);
		run.type('n');
		await run.ready();
		run.type('/permissions\r');
		await run.waitFor(screen => screen.includes('Permission rules (deny beats ask beats allow)'), 'the listing');
		const text = run.screen().join('\n');
		assert.match(text, /deny {2}shell\(rm \*\) .*settings\.json \(global\)/, text);
		assert.match(text, /allow shell\(ls\) +\.i\/settings\.local\.json \(local\) — does not count: the workspace is not trusted/, text);
	} finally {
		await run.close();
		await own.close();
	}
});

test('/permissions allow adds a rule the next call obeys; a malformed rule is refused with the reason', async () => {
	const box = makeSandbox();
	const own = await startMockProvider();
	const {run} = await startChat(own, {box});
	try {
		run.type('/permissions allow shell(echo *\r');
		await run.waitFor(screen => screen.includes('"shell(echo *": a pattern') && screen.includes('write TOOL(PATTERN)'), "the parser's reason");
		assert.equal(existsSync(join(box.workspace, '.i', 'settings.local.json')), false);
		run.type('/permissions allow shell(echo *)\r');
		await run.waitFor(screen => screen.includes('Added shell(echo *) to allow in .i/settings.local.json'), 'the rule added');
		const sent = own.requests.length;
		own.enqueue({toolCalls: [{id: 's1', name: 'shell', arguments: JSON.stringify({command: 'echo hi'})}]}, {text: 'Echoed.'});
		run.type('go\r');
		await run.waitFor(screen => screen.includes('Echoed.'), 'the second answer');
		assert.ok(!run.screen().some(row => row.includes('Allow?')), 'nothing was asked');
		assert.match(toolResults(own.requests[sent + 1]!.body).get('s1') ?? '', /hi/);
		assert.deepEqual(JSON.parse(readFileSync(join(box.workspace, '.i', 'settings.local.json'), 'utf8')), {permissions: {allow: ['shell(echo *)']}});
	} finally {
		await run.close();
		await own.close();
	}
});

test('"always, for this project" writes the narrowest rule to .i/settings.local.json and .gitignore, and the next matching call is not asked', async () => {
	const box = makeSandbox();
	mkdirSync(join(box.workspace, '.git'));
	const own = await startMockProvider();
	const {run} = await startChat(own, {box});
	try {
		const sent = own.requests.length;
		own.enqueue(
			{toolCalls: [{id: 's1', name: 'shell', arguments: JSON.stringify({command: 'echo one two'})}]},
			{toolCalls: [{id: 's2', name: 'shell', arguments: JSON.stringify({command: 'echo one three'})}]},
			{text: 'Both echoed.'},
		);
		run.type('go\r');
		await run.waitFor(screen => screen.includes('Allow? Run: echo one two') && screen.includes('[r] always, for this project: shell(echo one *)'), 'the question with the rule');
		await sleep(TYPEAHEAD_GUARD_MS + 150);
		run.type('r');
		await run.waitFor(screen => screen.includes('Both echoed.'), 'the last answer');
		assert.ok(!run.screen().some(row => row.includes('Allow?')), 'the second call was not asked');
		assert.match(run.screen().join('\n'), /Allowed from now on in this project: shell\(echo one \*\)/);
		assert.match(toolResults(own.requests[sent + 2]!.body).get('s2') ?? '', /one three/);
		assert.deepEqual(JSON.parse(readFileSync(join(box.workspace, '.i', 'settings.local.json'), 'utf8')), {permissions: {allow: ['shell(echo one *)']}});
		assert.equal(readFileSync(join(box.workspace, '.gitignore'), 'utf8'), '.i/settings.local.json\n');
	} finally {
		await run.close();
		await own.close();
	}
});

/** A workspace whose only project content is `.i/settings.json` with one allow rule. */
function allowOnly() {
	const box = makeSandbox();
	mkdirSync(join(box.workspace, '.i'));
	writeFileSync(join(box.workspace, '.i', 'settings.json'), JSON.stringify({permissions: {allow: ['shell(echo hi*)']}}));
	return box;
}

const trustQuestion = (screen: string) => screen.includes('Trust this workspace?') && screen.includes('allow shell(echo hi*) (.i/settings.json)') && screen.includes('[y] trust and use it');

test('a project whose only content is an allow rule is asked about, naming the rule; yes makes it count at once', async () => {
	const own = await startMockProvider();
	const {run} = await startChat(own, {box: allowOnly(), ready: false});
	try {
		await run.waitFor(trustQuestion, 'the trust question naming the rule');
		await sleep(TYPEAHEAD_GUARD_MS + 150);
		run.type('y');
		await run.ready();
		const sent = own.requests.length;
		own.enqueue({toolCalls: [{id: 's1', name: 'shell', arguments: JSON.stringify({command: 'echo hi'})}]}, {text: 'Echoed.'});
		run.type('go\r');
		await run.waitFor(screen => screen.includes('Echoed.'), 'the second answer');
		assert.ok(!run.screen().some(row => row.includes('Allow?')), 'the rule allowed the call');
		assert.match(toolResults(own.requests[sent + 1]!.body).get('s1') ?? '', /hi/);
		assert.doesNotMatch(run.output(), /not trusted/);
	} finally {
		await run.close();
		await own.close();
	}
});

test('no to the question leaves the allow rule out: the call asks, and a notice says how to be asked again', async () => {
	const own = await startMockProvider();
	const {run} = await startChat(own, {box: allowOnly(), ready: false});
	try {
		await run.waitFor(trustQuestion, 'the trust question naming the rule');
		await sleep(TYPEAHEAD_GUARD_MS + 150);
		run.type('n');
		await run.ready();
		await run.waitFor(screen => /allow rules of \S*settings\.json do not count/.test(screen.replaceAll(/[\s│]+/g, ' ')) && screen.includes('to be asked again'), 'the notice');
		own.enqueue({toolCalls: [{id: 's1', name: 'shell', arguments: JSON.stringify({command: 'echo hi'})}]}, {text: 'done'});
		run.type('go\r');
		await run.waitFor(screen => screen.includes('Allow? Run: echo hi'), 'the question the rule does not answer');
	} finally {
		await run.close();
		await own.close();
	}
});

test('/reload reads the rules again: a deny rule written meanwhile refuses the next call, and the reload says the rules were read', async () => {
	const box = makeSandbox();
	const own = await startMockProvider();
	const {run} = await startChat(own, {box});
	try {
		mkdirSync(join(box.workspace, '.i'));
		writeFileSync(join(box.workspace, '.i', 'settings.local.json'), JSON.stringify({permissions: {deny: ['shell(echo hi*)']}}));
		run.type('/reload\r');
		await run.waitFor(screen => screen.includes('permission rules: 1 read (.i/settings.local.json)'), 'the reload notice');
		const sent = own.requests.length;
		own.enqueue({toolCalls: [{id: 's1', name: 'shell', arguments: JSON.stringify({command: 'echo hi'})}]}, {text: 'Refused.'});
		run.type('go\r');
		await run.waitFor(screen => screen.includes('Refused.'), 'the second answer');
		assert.ok(!run.screen().some(row => row.includes('Allow?')), 'nothing was asked');
		assert.match(toolResults(own.requests[sent + 1]!.body).get('s1') ?? '', /denied by the permission rule "shell\(echo hi\*\)"/);
	} finally {
		await run.close();
		await own.close();
	}
});
