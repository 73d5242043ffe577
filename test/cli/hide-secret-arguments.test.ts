import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {fileURLToPath} from 'node:url';

const module = fileURLToPath(new URL('../../source/command-line/hide-secret-arguments.js', import.meta.url));

/** Runs a node process with `args`, hiding its secret arguments, and returns its argv and /proc/self/cmdline as it then reads them. */
function runHidden(args: string[]): {argv: string[]; cmdline: string[]} {
	const script = `
		const {hideSecretArguments} = await import(${JSON.stringify(module)});
		hideSecretArguments(process.argv.slice(1));
		const {readFileSync} = await import('node:fs');
		const cmdline = process.platform === 'linux' ? readFileSync('/proc/self/cmdline', 'utf8') : '';
		process.stdout.write(JSON.stringify({argv: process.argv.slice(1), cmdline: cmdline.split('\\0').join(' ').trim()}));
	`;
	const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, '--', ...args], {encoding: 'utf8'});
	assert.equal(run.status, 0, run.stderr);
	const parsed = JSON.parse(run.stdout) as {argv: string[]; cmdline: string};
	return {argv: parsed.argv, cmdline: parsed.cmdline.split(/\s+/)};
}

test('both spellings of --api-key lose their value in process.argv and, on Linux, in /proc/PID/cmdline', () => {
	const {argv, cmdline} = runHidden(['-p', 'hi', '--api-key', 'sk-word-SECRET-1', '--json']);
	assert.deepEqual(argv, ['-p', 'hi', '--api-key', '***', '--json']);
	const attached = runHidden(['dev', '.', '--', '--api-key=sk-attached-SECRET-2', '-p', 'x']);
	assert.deepEqual(attached.argv, ['dev', '.', '--', '--api-key=***', '-p', 'x']);
	if (process.platform === 'linux') {
		assert.ok(!cmdline.join(' ').includes('SECRET'), cmdline.join(' '));
		assert.ok(cmdline.includes('***') && cmdline.includes('--api-key'), cmdline.join(' '));
		assert.ok(!attached.cmdline.join(' ').includes('SECRET'), attached.cmdline.join(' '));
	}
});

test('a command line without a secret flag is left exactly as it was; a trailing --api-key has no value to hide', () => {
	const plain = runHidden(['-p', 'hi', '--json']);
	assert.deepEqual(plain.argv, ['-p', 'hi', '--json']);
	const trailing = runHidden(['-p', 'hi', '--api-key']);
	assert.deepEqual(trailing.argv, ['-p', 'hi', '--api-key']);
});
