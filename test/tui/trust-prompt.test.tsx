// The chat screen's trust question (components/TrustPrompt.tsx) and its
// broker: what it names, the keys that answer it, and UiPromptStart/End.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {setTimeout as delay} from 'node:timers/promises';
import {render} from 'ink-testing-library';
import {TYPEAHEAD_GUARD_MS} from '../../components/Approval.js';
import {MAX_LISTED_EXTENSIONS, TrustPrompt} from '../../components/TrustPrompt.js';
import {TrustBroker, TrustUnanswered, type PendingTrust} from '../../source/tui/brokers/trust-broker.js';
import type {UiPrompt, UiPromptAnswer} from '../../source/tui/ui-prompt-events.js';

const question = (count = 1, servers = 0, rules = 0, sandbox = 0, endpoints = 0) => ({
	workspace: '/work/project',
	extensions: Array.from({length: count}, (_, index) => `/work/project/.i/extensions/ext-${index + 1}.mjs`),
	mcpServers: Array.from({length: servers}, (_, index) => `server-${index + 1} (/work/project/.mcp.json)`),
	allowRules: Array.from({length: rules}, (_, index) => `shell(npm test-${index + 1}*) (.i/settings.json)`),
	sandboxSettings: Array.from({length: sandbox}, (_, index) => `allowedDomains host-${index + 1}.example.com (.i/settings.json)`),
	modelEndpoints: Array.from({length: endpoints}, (_, index) => `provider p${index + 1}: baseUrl https://collect-${index + 1}.example/v1 (.i/models.json)`),
	rememberedIn: '/data/workspaces/abc/trust.json',
});

function pending(answers: boolean[], count = 1): PendingTrust {
	return {question: question(count), answer: trusted => answers.push(trusted)};
}

test('the question names the workspace, the extensions it would run, the keys, and how to change the answer later', () => {
	const frame = render(<TrustPrompt pending={pending([])} onLeave={() => {}} />).lastFrame()!;
	assert.match(frame, /Trust this workspace\? \/work\/project/);
	assert.match(frame, /\/work\/project\/\.i\/extensions\/ext-1\.mjs/);
	assert.match(frame, /\[y\] trust and load it \[n\] do not trust Esc do not trust/);
	assert.match(frame.replaceAll(/[\s│]+/g, ' '), /To change it later, delete \/data\/workspaces\/abc\/trust\.json to be asked again, or pass --trust-project for one run/);
	const many = render(<TrustPrompt pending={pending([], MAX_LISTED_EXTENSIONS + 3)} onLeave={() => {}} />).lastFrame()!;
	assert.match(many, new RegExp(`ext-${MAX_LISTED_EXTENSIONS}\\.mjs`));
	assert.doesNotMatch(many, new RegExp(`ext-${MAX_LISTED_EXTENSIONS + 1}\\.mjs`));
	assert.match(many, /… and 3 more/);
});

test('the project’s MCP servers are named in the question, alone or beside its extensions, and what y does says so', () => {
	const only = render(<TrustPrompt pending={{question: question(0, 2), answer: () => {}}} onLeave={() => {}} />).lastFrame()!;
	assert.doesNotMatch(only, /extension/);
	assert.match(only, /Its MCP servers would start as programs of yours, with your rights:/);
	assert.match(only, /server-1 \(\/work\/project\/\.mcp\.json\)/);
	assert.match(only, /\[y\] trust and start them \[n\] do not trust/);
	const both = render(<TrustPrompt pending={{question: question(1, MAX_LISTED_EXTENSIONS + 1), answer: () => {}}} onLeave={() => {}} />).lastFrame()!;
	assert.match(both, /Its own extension would run inside i/);
	assert.match(both, /Its MCP servers would start/);
	assert.match(both, new RegExp(`server-${MAX_LISTED_EXTENSIONS} `));
	assert.doesNotMatch(both, new RegExp(`server-${MAX_LISTED_EXTENSIONS + 1} `));
	assert.match(both, /… and 1 more/);
	assert.match(both, /\[y\] trust, load and start them/);
});

test('y trusts and n does not, but not right after the question appeared; Esc does not trust at once; Ctrl-C leaves without an answer', async () => {
	const answers: boolean[] = [];
	const view = render(<TrustPrompt pending={pending(answers)} onLeave={() => {}} />);
	view.stdin.write('y');
	await delay(50);
	assert.deepEqual(answers, [], 'typed ahead: meant for the editor');
	await delay(TYPEAHEAD_GUARD_MS);
	view.stdin.write('y');
	await delay(50);
	assert.deepEqual(answers, [true]);
	view.stdin.write('n');
	await delay(50);
	assert.deepEqual(answers, [true, false]);
	view.unmount();

	const escaped: boolean[] = [];
	let left = 0;
	const second = render(<TrustPrompt pending={pending(escaped)} onLeave={() => left++} />);
	second.stdin.write('\u001B');
	await delay(100);
	assert.deepEqual(escaped, [false]);
	second.stdin.write('\u0003');
	await delay(50);
	assert.equal(left, 1);
	assert.deepEqual(escaped, [false], 'leaving answers nothing');
	second.unmount();
});

test('the broker shows one question, tells the observer how it ended, and a cancel rejects it unanswered', async () => {
	const seen: Array<[string, UiPrompt, UiPromptAnswer?]> = [];
	const broker = new TrustBroker({started: prompt => seen.push(['start', prompt]), ended: (prompt, answer) => seen.push(['end', prompt, answer])});
	const asked = broker.ask({...question(), workspace: '/work/\u001B]0;title\u0007x'});
	assert.equal(broker.getSnapshot()!.question.workspace, '/work/\uFFFD]0;title\uFFFDx', 'no control character reaches the screen');
	broker.getSnapshot()!.answer(true);
	assert.equal(await asked, true);
	assert.equal(broker.getSnapshot(), null);
	const left = broker.ask(question());
	broker.cancel();
	await assert.rejects(left, TrustUnanswered);
	assert.deepEqual(
		seen.map(([phase, prompt, answer]) => [phase, prompt.kind, prompt.id, answer]),
		[
			['start', 'trust', 'trust', undefined],
			['end', 'trust', 'trust', 'yes'],
			['start', 'trust', 'trust', undefined],
			['end', 'trust', 'trust', 'cancelled'],
		],
	);
	assert.deepEqual(seen[0]![1], {
		id: 'trust',
		kind: 'trust',
		workspace: '/work/\u001B]0;title\u0007x',
		extensions: question().extensions,
		mcpServers: [],
		allowRules: [],
		sandboxSettings: [],
		modelEndpoints: [],
	});
	// A server's name comes from the project's file: shown without its control characters too.
	const named = broker.ask({...question(0), mcpServers: ['evil\u001B[2J (/w/.mcp.json)']});
	assert.deepEqual(broker.getSnapshot()!.question.mcpServers, ['evil\uFFFD[2J (/w/.mcp.json)']);
	assert.equal(seen.at(-1)![1].kind === 'trust' && (seen.at(-1)![1] as {mcpServers: string[]}).mcpServers.length, 1);
	broker.getSnapshot()!.answer(false);
	assert.equal(await named, false);
	// A rule comes from the project's file too: no control character, and a reordering one is marked, since the rule says what runs unasked.
	const ruled = broker.ask({...question(0), allowRules: ['shell(echo \u001B[2J\u202E*) (.i/settings.json)']});
	assert.deepEqual(broker.getSnapshot()!.question.allowRules, ['shell(echo \uFFFD[2J⟨U+202E⟩*) (.i/settings.json)']);
	assert.deepEqual((seen.at(-1)![1] as {allowRules: string[]}).allowRules, ['shell(echo \u001B[2J\u202E*) (.i/settings.json)']);
	broker.getSnapshot()!.answer(false);
	assert.equal(await ruled, false);
});

test('the project’s allow rules are named in the question with their files, alone or beside its code, and what y does says so', () => {
	const only = render(<TrustPrompt pending={{question: question(0, 0, 1), answer: () => {}}} onLeave={() => {}} />).lastFrame()!;
	assert.doesNotMatch(only, /extension|MCP/);
	assert.match(only, /Its permission rule would let tool calls run without asking you:/);
	assert.match(only, /allow shell\(npm test-1\*\) \(\.i\/settings\.json\)/);
	assert.match(only, /\[y\] trust and use it \[n\] do not trust/);
	const both = render(<TrustPrompt pending={{question: question(1, 0, MAX_LISTED_EXTENSIONS + 2), answer: () => {}}} onLeave={() => {}} />).lastFrame()!;
	assert.match(both, /Its own extension would run inside i/);
	assert.match(both, /Its permission rules would let tool calls run/);
	assert.match(both, new RegExp(`npm test-${MAX_LISTED_EXTENSIONS}\\*`));
	assert.doesNotMatch(both, new RegExp(`npm test-${MAX_LISTED_EXTENSIONS + 1}\\*`));
	assert.match(both, /… and 2 more/);
	assert.match(both, /\[y\] trust and load it/);
});

test('the project’s sandbox settings are named in the question with their files, alone or beside its rules, and what y does says so', () => {
	const only = render(<TrustPrompt pending={{question: question(0, 0, 0, 1), answer: () => {}}} onLeave={() => {}} />).lastFrame()!;
	assert.doesNotMatch(only, /extension|MCP|permission/);
	assert.match(only, /Its sandbox setting would let the model's commands do more:/);
	assert.match(only, /sandbox\.allowedDomains host-1\.example\.com \(\.i\/settings\.json\)/);
	assert.match(only, /\[y\] trust and use it \[n\] do not trust/);
	const both = render(<TrustPrompt pending={{question: question(0, 0, 1, MAX_LISTED_EXTENSIONS + 1), answer: () => {}}} onLeave={() => {}} />).lastFrame()!;
	assert.match(both, /Its permission rule would let tool calls run/);
	assert.match(both, /Its sandbox settings would let/);
	assert.match(both, new RegExp(`host-${MAX_LISTED_EXTENSIONS}\\.example`));
	assert.doesNotMatch(both, new RegExp(`host-${MAX_LISTED_EXTENSIONS + 1}\\.example`));
	assert.match(both, /… and 1 more/);
	assert.match(both, /\[y\] trust and use them/);
});

test('the project’s models.json endpoints are named in the question with their file, alone or beside its code', () => {
	const only = render(<TrustPrompt pending={{question: question(0, 0, 0, 0, 1), answer: () => {}}} onLeave={() => {}} />).lastFrame()!;
	assert.doesNotMatch(only, /extension|MCP/);
	assert.match(only, /Its models\.json would send your requests, with your key for the provider, elsewhere:/);
	assert.match(only, /provider p1: baseUrl https:\/\/collect-1\.example\/v1 \(\.i\/models\.json\)/);
	assert.match(only, /\[y\] trust and use it \[n\] do not trust/);
	const many = render(<TrustPrompt pending={{question: question(1, 0, 0, 0, MAX_LISTED_EXTENSIONS + 1), answer: () => {}}} onLeave={() => {}} />).lastFrame()!;
	assert.match(many, new RegExp(`collect-${MAX_LISTED_EXTENSIONS}\\.example`));
	assert.match(many, / … and 1 more/);
});
