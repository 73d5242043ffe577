import assert from 'node:assert/strict';
import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import {MAX_USER_BASH_ANSWER_CHARS, readUserBashAnswer, type UserBashValue} from '../../source/core/extensions/event-answers.js';
import {parseBangPrompt} from '../../source/core/user-bash/bang-prompt.js';
import {USER_BASH_OUTPUT_CHARS, runUserBash} from '../../source/core/user-bash/run-user-bash.js';
import {SHOWN_BASH_LINES, lastLines, userBashMessage, userBashOf} from '../../source/core/user-bash/user-bash-message.js';
import {tempDir} from '../tools/helpers.js';

const options = (workspace: string, signal = new AbortController().signal) => ({workspace, signal, events: null, excludeFromContext: false});

test('! and !! are commands, \\! is a message starting with !', () => {
	assert.deepEqual(parseBangPrompt('!ls -la'), {kind: 'command', command: 'ls -la', excludeFromContext: false});
	assert.deepEqual(parseBangPrompt('  !! git status '), {kind: 'command', command: 'git status', excludeFromContext: true});
	assert.deepEqual(parseBangPrompt('\\!important'), {kind: 'message', text: '!important'});
	assert.deepEqual(parseBangPrompt('not !a command'), {kind: 'message', text: 'not !a command'});
});

test('a command runs in the workspace with its output streamed and kept', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'here.txt'), '');
	const pieces: string[] = [];
	const run = await runUserBash('ls; echo oops >&2; exit 4', {...options(dir), onOutput: text => pieces.push(text)});
	assert.equal(run.output, 'here.txt\noops');
	assert.equal(pieces.join(''), 'here.txt\noops\n');
	assert.equal(run.exitCode, 4);
	assert.equal(run.status, 'exit code 4');
	assert.equal(run.replacedBy, null);
});

test('output past the limit keeps its start and end', async t => {
	const dir = await tempDir(t);
	const run = await runUserBash(`head -c ${USER_BASH_OUTPUT_CHARS + 1000} /dev/zero | tr '\\0' x; echo; echo END`, options(dir));
	assert.ok(run.output.length <= USER_BASH_OUTPUT_CHARS);
	assert.match(run.output, /^x+\n\[… \d+ characters truncated …\]\nx+\nEND$/);
	const exact = await runUserBash(`head -c ${USER_BASH_OUTPUT_CHARS} /dev/zero | tr '\\0' x`, options(dir));
	assert.equal(exact.output.length, USER_BASH_OUTPUT_CHARS);
});

test('stopped before the shell starts, a command is cancelled, not failed', async t => {
	const dir = await tempDir(t);
	const controller = new AbortController();
	controller.abort();
	const run = await runUserBash('echo never', options(dir, controller.signal));
	assert.equal(run.cancelled, true);
	assert.equal(run.exitCode, null);
	assert.match(run.status, /^cancelled/);
});

test('the context message fences the output so backticks in it cannot close the fence; the record keeps the last lines', () => {
	const output = Array.from({length: 30}, (_, index) => (index === 3 ? '```` four ticks' : `line ${index + 1}`)).join('\n');
	const message = userBashMessage({command: 'cat x', output, status: 'exit code 0', exitCode: 0, cancelled: false, replacedBy: null});
	assert.match(message.content as string, /\n\$ cat x\n`````\n[\s\S]*\n`````\nexit code 0$/);
	assert.deepEqual(userBashOf(message), {command: 'cat x', status: 'exit code 0', shown: lastLines(output, SHOWN_BASH_LINES)});
	assert.match(message._user_bash.shown, /^… 10 lines above\nline 11\n/);
	assert.equal(userBashOf({role: 'user', content: 'plain'}), null);
	assert.equal(userBashOf({role: 'user', content: 'x', _user_bash: {command: 1}} as never), null);
	const empty = userBashMessage({command: 'true', output: '', status: 'exit code 0', exitCode: 0, cancelled: false, replacedBy: null});
	assert.match(empty.content as string, /\$ true\n\(no output\)\nexit code 0$/);
});

test('a UserBash answer is checked: each bad field named, the limit at its number and one past', () => {
	const previous: UserBashValue = {command: 'x', cwd: '/w', excludeFromContext: false, result: null};
	assert.equal(readUserBashAnswer(undefined, previous, 'e'), undefined);
	assert.equal(readUserBashAnswer({}, previous, 'e'), undefined);
	assert.deepEqual(readUserBashAnswer({result: {output: 'o'}}, previous, 'e')?.result, {output: 'o', exitCode: 0, extension: 'e'});
	assert.throws(() => readUserBashAnswer({result: 'o'}, previous, 'e'), /"result" must be an object/);
	assert.throws(() => readUserBashAnswer({result: {output: 1}}, previous, 'e'), /"result.output" must be a string/);
	assert.throws(() => readUserBashAnswer({result: {output: '', exitCode: 256}}, previous, 'e'), /"result.exitCode" must be an integer from 0 to 255/);
	assert.throws(() => readUserBashAnswer({result: {output: '', exitCode: 1.5}}, previous, 'e'), /"result.exitCode"/);
	assert.ok(readUserBashAnswer({result: {output: 'x'.repeat(MAX_USER_BASH_ANSWER_CHARS)}}, previous, 'e'));
	assert.throws(() => readUserBashAnswer({result: {output: 'x'.repeat(MAX_USER_BASH_ANSWER_CHARS + 1)}}, previous, 'e'), /over the 1048576 limit/);
});
