import {test} from 'node:test';
import assert from 'node:assert/strict';
import {slashCommands} from '../../source/tui/slash-commands.js';
import {builtinCommandNames} from '../../source/core/extensions/check-command.js';

test("the names extensions may not take are the chat screen's own commands, all of them", () => {
	assert.deepEqual(
		slashCommands.map(command => command.name.slice(1)),
		[...builtinCommandNames],
	);
});

test('an extension command parses with its words; the screen own commands take none; unknown words are unknown', async () => {
	const {parseSlashCommand, slashCompletions} = await import('../../source/tui/slash-commands.js');
	const extra = [{name: '/todo', description: 'a list'}];
	assert.deepEqual(parseSlashCommand('/todo add milk  ', extra), {extension: 'todo', args: 'add milk'});
	assert.deepEqual(parseSlashCommand('/todo', extra), {extension: 'todo', args: ''});
	assert.deepEqual(parseSlashCommand('/help'), {name: '/help'});
	assert.deepEqual(parseSlashCommand('/help me'), {unknown: '/help'});
	// /provider and /model take their words; a message of several lines is a message.
	assert.deepEqual(parseSlashCommand('/provider'), {name: '/provider'});
	assert.deepEqual(parseSlashCommand('/provider  remove  mine '), {name: '/provider', args: 'remove  mine'});
	assert.deepEqual(parseSlashCommand('/model deepseek/deepseek-chat'), {name: '/model', args: 'deepseek/deepseek-chat'});
	assert.equal(parseSlashCommand('/model a\nb'), null);
	assert.deepEqual(parseSlashCommand('/cost now'), {unknown: '/cost'});
	assert.deepEqual(parseSlashCommand('/todo x'), {unknown: '/todo'});
	assert.equal(parseSlashCommand('/path/to line one\nline two'), null);
	assert.deepEqual(
		slashCompletions('/t', extra).map(command => command.name),
		['/theme', '/todo'],
	);
});

test('Markdown transformers chain in order; {} and nothing keep the text; a throw or a wrong answer is reported once and skipped; the result is printable', async () => {
	const {chainMarkdownTransformers} = await import('../../source/tui/markdown/markdown-transform.js');
	const reports: string[] = [];
	const transform = chainMarkdownTransformers(
		[
			{extension: 'a', transform: ({text}) => ({text: `${text}!`})},
			{extension: 'b', transform: (() => ({})) as never},
			{extension: 'c', transform: () => undefined},
			{
				extension: 'd',
				transform: () => {
					throw new Error('nope');
				},
			},
			{extension: 'e', transform: (() => Promise.resolve({text: 'late'})) as never},
			{extension: 'f', transform: ({text}) => ({lines: [text, 'more\u001B[2J']})},
		],
		message => reports.push(message),
	);
	assert.equal(transform('hi'), 'hi!\nmore\uFFFD[2J');
	assert.equal(transform('again'), 'again!\nmore\uFFFD[2J');
	assert.equal(reports.length, 2);
	assert.match(reports[0]!, /extension d failed: nope/);
	assert.match(reports[1]!, /extension e answered neither/);
});

test('an extension command: text, {lines} and nothing shown as they are, a wrong answer a warning, a throw an error naming it, a stop without waiting', async () => {
	const {ChatStore} = await import('../../source/tui/chat-store.js');
	const {runExtensionCommand} = await import('../../source/tui/commands/extension-command.js');
	const store = new ChatStore({model: '', workspace: '', session: null, usage: null, window: null}, {logo: false, frameMs: 0});
	const run = async (handler: () => unknown, signal = new AbortController().signal) =>
		runExtensionCommand('c', {extension: 'x', description: 'd', handler: handler as never}, '', {workspace: '/w', sessionId: 's', signal, store});
	await run(() => 'plain');
	await run(() => ({lines: ['a', 'b']}));
	await run(() => undefined);
	await run(() => 42);
	await run(() => {
		throw new Error('broke');
	});
	const stop = new AbortController();
	const never = run(() => new Promise(() => {}), stop.signal);
	stop.abort();
	await never;
	const notices = store
		.getSnapshot()
		.finished.filter(item => item.kind === 'notice')
		.map(item => (item.kind === 'notice' ? [item.level, item.text] : []));
	assert.deepEqual(notices, [
		['info', 'plain'],
		['info', 'a\nb'],
		['warning', '/c (extension x) answered neither text, {text} nor {lines}'],
		['error', '/c (extension x) failed: broke'],
		['info', '/c (extension x) stopped'],
	]);
});
