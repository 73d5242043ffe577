import {parseArgs} from 'node:util';
import {helpText} from './help.js';
import {exitCodes, UsageError, errorMessage} from './core/errors.js';

export interface CliOptions {
	/** The prompt of -p; '' when -p came without text (read stdin); undefined without -p. */
	print: string | undefined;
	json: boolean;
	config: string | undefined;
	cwd: string | undefined;
	session: string | undefined;
	sessionName: string | undefined;
	maxSteps: number | undefined;
	yolo: boolean;
	logo: boolean;
	/** `--extension PATH`, repeatable. */
	extensions: string[];
	/** `--extensions-dir DIR`, repeatable. */
	extensionDirs: string[];
	noExtensions: boolean;
	trustProject: boolean;
}

/** Parses flags and runs the chosen head; returns the exit code. */
export async function runCli(argv: string[]): Promise<number> {
	if (argv[0] === '--runtime') {
		const [{runRuntime}, {flushOutput}] = await Promise.all([import('./runtime/run-runtime.js'), import('./modes/output.js')]);
		const code = await runRuntime(argv.slice(1));
		await flushOutput();
		return code;
	}

	let options: CliOptions | 'help' | 'version';
	try {
		options = parseFlags(argv);
	} catch (error) {
		process.stderr.write(`i: ${errorMessage(error)}\n`);
		return exitCodes.usage;
	}

	if (options === 'help') {
		process.stdout.write(`${helpText.trim()}\n`);
		return exitCodes.ok;
	}

	if (options === 'version') {
		const {version} = await import('./version.js');
		process.stdout.write(`${version()}\n`);
		return exitCodes.ok;
	}

	const {flushOutput, keepStdoutForContent} = await import('./modes/output.js');
	let code: number;
	// --json wants events, not a screen: it keeps line mode even at a terminal.
	if (options.print === undefined && !options.json && process.stdin.isTTY && process.stdout.isTTY) {
		// Ink colours through chalk, which reads FORCE_COLOR but not NO_COLOR: say it in chalk's terms before it loads.
		if (process.env.NO_COLOR) process.env.FORCE_COLOR = '0';
		const {importWithoutFetch} = await import('./tui/import-without-fetch.js');
		const {runTui} = await importWithoutFetch(async () => import('./tui/run-tui.js'));
		code = await runTui(options);
	} else {
		// The config and the manifests first, then the head's own modules, which load while the workers
		// start (issue 11). Not concurrently: loading and running the head's modules would hold up the
		// reads and imports that lead to the workers' start. The head's set-up reports a failure.
		const [{startPlugins}, {exitOnInterrupt}] = await Promise.all([import('./core/start/start-plugins.js'), import('./modes/interrupt.js')]);
		// Extension code may print: stdout keeps only the answer or the JSON events (EXTENSIONS.md).
		keepStdoutForContent();
		const startup = exitOnInterrupt();
		const started = startPlugins(options);
		await started.catch(() => {});
		if (options.print === undefined) {
			const {runLineMode} = await import('./modes/line-mode.js');
			// The head listens from its first synchronous step on: no signal falls between the two.
			startup.dispose();
			code = await runLineMode(options, started);
		} else {
			const {runPrintMode} = await import('./modes/print-mode.js');
			startup.dispose();
			code = await runPrintMode(options, started);
		}
	}

	await flushOutput();
	return code;
}

const flags = {
	print: {type: 'boolean', short: 'p'},
	json: {type: 'boolean', default: false},
	config: {type: 'string'},
	cwd: {type: 'string', short: 'C'},
	session: {type: 'string'},
	'session-name': {type: 'string'},
	'max-steps': {type: 'string'},
	yolo: {type: 'boolean', default: false},
	'dangerously-skip-permissions': {type: 'boolean', default: false},
	logo: {type: 'boolean', default: true},
	extension: {type: 'string', multiple: true},
	'extensions-dir': {type: 'string', multiple: true},
	extensions: {type: 'boolean', default: true},
	'trust-project': {type: 'boolean', default: false},
	version: {type: 'boolean', short: 'v', default: false},
	help: {type: 'boolean', short: 'h', default: false},
} as const;

/**
 * The flags of DESIGN's command line, parsed with node:util (no dependency
 * to load before the first byte of output). The -p prompt is the rest of
 * the words: `i -p explain this file`.
 */
export function parseFlags(argv: string[]): CliOptions | 'help' | 'version' {
	let parsed;
	try {
		parsed = parseArgs({args: expandPrintValue(argv), options: flags, allowPositionals: true, allowNegative: true, strict: true});
	} catch (error) {
		const unknown = /^Unknown option '([^']+)'/.exec(errorMessage(error));
		throw new UsageError(unknown ? `unknown flag ${unknown[1]}; see i --help` : `${errorMessage(error)}; see i --help`);
	}

	const {values, positionals} = parsed;
	if (values.help) return 'help';
	if (values.version) return 'version';
	if (values.session !== undefined && values['session-name'] !== undefined) {
		throw new UsageError('--session and --session-name name two different sessions; pass one of them');
	}

	for (const name of ['config', 'cwd', 'session', 'session-name', 'max-steps'] as const) {
		if (values[name] === '') throw new UsageError(`--${name} needs a value`);
	}

	let maxSteps: number | undefined;
	if (values['max-steps'] !== undefined) {
		maxSteps = Number(values['max-steps']);
		if (!/^\d+$/.test(values['max-steps']) || maxSteps < 1 || maxSteps > 1000) {
			throw new UsageError('--max-steps must be a whole number from 1 to 1000');
		}
	}

	if (positionals.length > 0 && !values.print) {
		throw new UsageError(`unexpected argument "${positionals[0]}"; to ask one question, use -p "${positionals.join(' ')}"`);
	}

	return {
		print: values.print ? positionals.join(' ') : undefined,
		json: values.json,
		config: values.config,
		cwd: values.cwd,
		session: values.session,
		sessionName: values['session-name'],
		maxSteps,
		yolo: values.yolo || values['dangerously-skip-permissions'],
		logo: values.logo,
		extensions: values.extension ?? [],
		extensionDirs: values['extensions-dir'] ?? [],
		noExtensions: !values.extensions,
		trustProject: values['trust-project'],
	};
}

/** `--print=TEXT` is `--print TEXT`: -p is a switch and the prompt its words. */
function expandPrintValue(argv: string[]): string[] {
	const end = argv.indexOf('--');
	return argv.flatMap((arg, index) => {
		if ((end === -1 || index < end) && arg.startsWith('--print=')) return ['--print', arg.slice('--print='.length)];
		return [arg];
	});
}
