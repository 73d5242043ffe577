import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {parseCommandLine} from '../../source/command-line/parse-command-line.js';
import {nearestName} from '../../source/core/nearest-name.js';
import {parseFlags} from '../../source/main-flags.js';
import {UsageError} from '../../source/core/errors.js';

// The shape later flags take (`--extension PATH`, repeatable): no flag of today's command line repeats.
const repeatable = {
	extension: {type: 'string', shortFlag: 'e', isMultiple: true},
	level: {type: 'number', isMultiple: true},
	quiet: {type: 'boolean', default: false},
} as const;

test('a repeatable flag collects every value in order, under each of its spellings; absent, it is empty', () => {
	const {flags, input} = parseCommandLine(['--extension', 'a.js', 'word', '-e', 'b.js', '--extension=c.js', '-ed.js', '--level', '2', '--level=3'], {flags: repeatable, takesInput: true});
	assert.deepEqual(flags.extension, ['a.js', 'b.js', 'c.js', 'd.js']);
	assert.deepEqual(flags.level, [2, 3]);
	assert.deepEqual(input, ['word']);
	const none = parseCommandLine([], {flags: repeatable});
	assert.deepEqual(none.flags.extension, []);
	assert.equal(none.flags.quiet, false);
});

test('a repeatable flag still needs a value each time, and a single-valued one is refused twice', () => {
	assert.throws(() => parseCommandLine(['-e', 'a.js', '--extension'], {flags: repeatable}), {name: 'UsageError', message: '--extension needs a value; see i --help'});
	assert.throws(() => parseCommandLine(['--quiet', '--quiet'], {flags: repeatable}), {message: '--quiet is given twice (--quiet, --quiet); give it once; see i --help'});
	assert.throws(() => parseCommandLine(['stray'], {flags: repeatable}), {message: 'unexpected argument "stray"; see i --help'});
});

test('values keep their text: spaces, a leading dash after =, negative numbers, = inside', () => {
	const {flags} = parseCommandLine(['--extension=-odd name.js', '-e', 'x=y', '--level', '-4'], {flags: repeatable});
	assert.deepEqual(flags.extension, ['-odd name.js', 'x=y']);
	assert.deepEqual(flags.level, [-4]);
});

test('--api-key: its value is taken, and no error about the flag repeats it', () => {
	const parsed = parseFlags(['--api-key', 'sk-flag-value-1', '-p', 'hi']);
	assert.ok(parsed.kind === 'run');
	assert.equal(parsed.options.apiKey, 'sk-flag-value-1');
	assert.throws(
		() => parseFlags(['--api-key', 'sk-first-secret', '--api-key=sk-second-secret']),
		(error: Error) => error.message.includes('--api-key is given twice') && !error.message.includes('secret'),
	);
	// Other flags still show what was given twice.
	assert.throws(() => parseFlags(['--config', 'a.json', '--config', 'b.json']), /a\.json.*b\.json/);
});

test('the main flags: defaults, --no-logo, the alias of --yolo, typed --max-steps, the -p prompt', () => {
	const plain = parseFlags([]);
	assert.equal(plain.kind, 'run');
	if (plain.kind !== 'run') return;
	const {commandLine, ...options} = plain.options;
	assert.equal(commandLine.pending, false);
	assert.deepEqual(options, {
		print: undefined,
		json: false,
		config: undefined,
		cwd: undefined,
		session: undefined,
		sessionName: undefined,
		continueLatest: false,
		resume: false,
		maxSteps: undefined,
		apiKey: undefined,
		yolo: false,
		permissionMode: 'default',
		logo: true,
		extensions: [],
		extensionDirs: [],
		skills: [],
		promptTemplates: [],
		noExtensions: false,
		trustProject: false,
		agentsMd: true,
		sandbox: true,
		provider: undefined,
		model: undefined,
		listModels: false,
	});
	const chosen = parseFlags(['--provider', 'deepseek', '--model', 'deepseek/deepseek-chat', '--list-models']);
	assert.ok(chosen.kind === 'run');
	assert.deepEqual([chosen.options.provider, chosen.options.model, chosen.options.listModels], ['deepseek', 'deepseek/deepseek-chat', true]);
	const full = parseFlags(['--no-logo', '--dangerously-skip-permissions', '--max-steps', '12', '--session-name', 'work', '-p', 'a', 'b']);
	assert.equal(full.kind, 'run');
	if (full.kind !== 'run') return;
	assert.equal(full.options.logo, false);
	assert.equal(full.options.yolo, true);
	assert.equal(full.options.permissionMode, 'bypassPermissions');
	const planned = parseFlags(['--permission-mode', 'plan', '-p', 'a']);
	assert.equal(planned.kind === 'run' && planned.options.permissionMode, 'plan');
	assert.equal(full.options.maxSteps, 12);
	assert.equal(full.options.sessionName, 'work');
	assert.equal(full.options.print, 'a b');
	const extensions = parseFlags(['--extension', 'a.js', '--extensions-dir', 'x', '--extension=b.js', '--no-extensions', '--trust-project']);
	assert.ok(extensions.kind === 'run');
	assert.deepEqual(extensions.options.extensions, ['a.js', 'b.js']);
	assert.deepEqual(extensions.options.extensionDirs, ['x']);
	assert.equal(extensions.options.noExtensions, true);
	assert.equal(extensions.options.trustProject, true);
	const folders = parseFlags(['--skill', 's1', '--prompt-template', 'p1', '--skill=s2', '--prompt-template', 'p2']);
	assert.ok(folders.kind === 'run');
	assert.deepEqual(folders.options.skills, ['s1', 's2']);
	assert.deepEqual(folders.options.promptTemplates, ['p1', 'p2']);
	// The default list is not shared between parses.
	const again = parseFlags(['--extension', 'c.js']);
	assert.ok(again.kind === 'run');
	assert.deepEqual(again.options.extensions, ['c.js']);
	const stdin = parseFlags(['-p']);
	assert.equal(stdin.kind === 'run' && stdin.options.print, '');
	assert.equal(parseFlags(['--logo']).kind, 'run');
	assert.throws(() => parseFlags(['--session', 'a.json', '--session-name', 'a']), UsageError);
});

test('meow leaves the process title, and so the command line ps shows, as it was', () => {
	const title = process.title;
	const cmdline = readFileSync('/proc/self/cmdline', 'utf8');
	parseFlags(['-p', 'hi']);
	assert.equal(process.title, title);
	assert.equal(readFileSync('/proc/self/cmdline', 'utf8'), cmdline);
});

test('the nearest name: one edit per three characters, a swap is one edit, case ignored, else the shortest name begun', () => {
	const names = ['json', 'config', 'cwd', 'session', 'session-name', 'max-steps'];
	assert.equal(nearestName('jsn', names), 'json');
	assert.equal(nearestName('conifg', names), 'config');
	assert.equal(nearestName('JSON', names), 'json');
	assert.equal(nearestName('max', names), 'max-steps');
	assert.equal(nearestName('sess', names), 'session');
	assert.equal(nearestName('frobnicate', names), undefined);
	assert.equal(nearestName('xy', names), undefined);
});

test('deferUnknown keeps the long flags the table lacks for the extensions, each with the word after it; the rest of the line parses as before', () => {
	const {flags, input, unclaimed} = parseCommandLine(['--mode', 'fast', 'word', '--level=2', '--color=red', '--no-cache', '--quiet', '--depth', '--', '--late'], {
		flags: repeatable,
		takesInput: true,
		deferUnknown: true,
	});
	assert.deepEqual(input, ['fast', 'word', '--late']);
	assert.deepEqual(flags.level, [2]);
	assert.equal(flags.quiet, true);
	assert.deepEqual(unclaimed, [
		{spelling: '--mode', name: 'mode', negated: false, attached: undefined, nextInput: 0},
		{spelling: '--color', name: 'color', negated: false, attached: 'red', nextInput: undefined},
		{spelling: '--no-cache', name: 'cache', negated: true, attached: undefined, nextInput: undefined},
		{spelling: '--depth', name: 'depth', negated: false, attached: undefined, nextInput: undefined},
	]);
});

test('deferUnknown still refuses an unknown short flag and the --no- form of a flag that takes a value', () => {
	assert.throws(() => parseCommandLine(['-z'], {flags: repeatable, deferUnknown: true}), {message: /unknown flag -z/});
	assert.throws(() => parseCommandLine(['--no-level'], {flags: repeatable, deferUnknown: true}), {message: /--level takes a value; only a switch has a --no- form/});
});

test('parseFlags: with --no-extensions, --help or --version an unknown flag fails at once; otherwise it waits for the extensions, and so does a word after it', () => {
	for (const argv of [
		['--no-extensions', '--mode'],
		['--help', '--mode'],
		['-v', '--mode=x'],
	])
		assert.throws(() => parseFlags(argv), {name: 'UsageError', message: /unknown flag --mode/});
	const parsed = parseFlags(['--mode', 'fast']);
	assert.equal(parsed.kind, 'run');
	assert.equal(parsed.kind === 'run' && parsed.options.commandLine.pending, true);
	assert.throws(() => parseFlags(['stray']), {message: /unexpected argument "stray"/});
});
