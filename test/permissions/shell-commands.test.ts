import {test} from 'node:test';
import assert from 'node:assert/strict';
import {splitShellCommand} from '../../source/core/permissions/shell-commands.js';
import {judgedCommands} from '../../source/core/permissions/shell-variants.js';

const sh = (line: string) => splitShellCommand(line, 'sh');

test('simple commands are split at &&, ||, ;, |, & and newlines, and only there', () => {
	assert.deepEqual(sh('npm test').commands, [['npm', 'test']]);
	assert.deepEqual(sh('a && b || c; d | e & f\ng').commands, [['a'], ['b'], ['c'], ['d'], ['e'], ['f'], ['g']]);
	assert.deepEqual(sh('git  status\t-s ;').commands, [['git', 'status', '-s']]);
	assert.deepEqual(sh('').commands, []);
});

test('quoting is removed and keeps operators inside one word', () => {
	assert.deepEqual(sh(`echo "a; b" 'c && d' e\\;f`).commands, [['echo', 'a; b', 'c && d', 'e;f']]);
	assert.deepEqual(sh(`'git' "status"`).commands, [['git', 'status']]);
	assert.deepEqual(sh(`echo '$HOME' "a\\"b" "c\\d"`).commands, [['echo', '$HOME', 'a"b', 'c\\d']]);
	assert.deepEqual(sh('echo one\\\ntwo').commands, [['echo', 'onetwo']]);
	assert.deepEqual(sh('npm test # && rm -rf /').commands, [['npm', 'test']]);
	assert.deepEqual(sh('echo a#b').commands, [['echo', 'a#b']]);
});

test('streams moved or discarded are understood; a file redirection is not', () => {
	assert.deepEqual(sh('npm test 2>&1 | tail -n 20').commands, [
		['npm', 'test'],
		['tail', '-n', '20'],
	]);
	assert.deepEqual(sh('npm test >/dev/null 2> /dev/null &>/dev/null').commands, [['npm', 'test']]);
	assert.match(sh('npm test > out.txt').opaque!, /redirection to or from a file \(`>out.txt`\)/);
	assert.match(sh('npm test >> ~/.bashrc').opaque!, /redirection/);
	assert.match(sh('sort < secrets').opaque!, /redirection/);
	assert.match(sh('npm test >&log').opaque!, /redirection/);
	assert.match(sh('cat <<EOF\nx\nEOF').opaque!, /here-document/);
});

test('expansions, subshells, compound commands and broken quoting are opaque', () => {
	for (const [line, why] of [
		['echo $(rm -rf /)', /`\$`/],
		['echo "$(rm -rf /)"', /`\$`/],
		['echo $HOME', /`\$`/],
		[`echo $\u007BHOME}`, /`\$`/],
		['echo `rm -rf /`', /backticks/],
		['(cd x && rm y)', /parentheses/],
		['diff <(a) <(b)', /process substitution/],
		['tee >(rm x)', /process substitution/],
		['{ rm x; }', /braces/],
		['if true; then rm x; fi', /compound command \(`if`\)/],
		['! rm x', /compound command/],
		['echo "unclosed', /unclosed quote/],
		["echo 'unclosed", /unclosed quote/],
		['echo a\\', /backslash at the end/],
		['echo a\u0000b', /control character/],
		['echo a\rb', /control character/],
		['a |& b', /`\|&`/],
	] as const) {
		const split = sh(line);
		assert.equal(split.commands, null, line);
		assert.match(split.opaque!, why, line);
	}
});

test('cmd.exe: & and | separate, single quotes are plain characters, and its own syntax is opaque', () => {
	assert.deepEqual(splitShellCommand('npm test & del x && dir', 'cmd').commands, [['npm', 'test'], ['del', 'x'], ['dir']]);
	assert.deepEqual(splitShellCommand("echo 'a & del x'", 'cmd').commands, [
		['echo', "'a"],
		['del', "x'"],
	]);
	assert.deepEqual(splitShellCommand('echo "a & b"', 'cmd').commands, [['echo', 'a & b']]);
	for (const line of ['echo %PATH%', 'echo a ^& del x', 'echo a > out', 'a; b', '(dir)', 'echo !x!']) assert.notEqual(splitShellCommand(line, 'cmd').opaque, null, line);
});

test('deny rules judge each command as written and without its leading assignments, keywords and wrappers', () => {
	assert.deepEqual(judgedCommands('FOO=1 rm -rf x', 'sh'), [
		['FOO=1', 'rm', '-rf', 'x'],
		['rm', '-rf', 'x'],
	]);
	assert.ok(judgedCommands('sudo -u me rm x', 'sh').some(words => words.join(' ') === 'rm x'));
	assert.ok(judgedCommands('env A=1 B=2 nice -n 5 rm x', 'sh').some(words => words.join(' ') === 'rm x'));
	// The argument of a command is not a command.
	assert.ok(!judgedCommands('git commit -m "rm stuff"', 'sh').some(words => words[0] === 'rm'));
	assert.ok(!judgedCommands('time git commit -m "rm stuff"', 'sh').some(words => words[0] === 'rm'));
	// What the splitter does not understand is cut at every operator, quote and expansion.
	assert.ok(judgedCommands('echo $(rm -rf /)', 'sh').some(words => words.join(' ') === 'rm -rf /'));
	assert.ok(judgedCommands('echo `rm -rf /`', 'sh').some(words => words.join(' ') === 'rm -rf /'));
	assert.ok(judgedCommands('if true; then rm x; fi', 'sh').some(words => words.join(' ') === 'rm x'));
	assert.ok(judgedCommands('cat <<EOF\nx\nEOF\nrm y', 'sh').some(words => words.join(' ') === 'rm y'));
});
