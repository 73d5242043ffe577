import meow from 'meow';
import {helpText} from './help.js';
import {exitCodes, UsageError, errorMessage} from './core/errors.js';

export interface CliOptions {
	/** The -p text; '' when -p was given without text; undefined without -p. */
	print: string | undefined;
	json: boolean;
	config: string | undefined;
	cwd: string | undefined;
	session: string | undefined;
	sessionName: string | undefined;
	maxSteps: number | undefined;
	yolo: boolean;
	logo: boolean;
}

/** Parses flags and runs the chosen head; returns the exit code. */
export async function runCli(argv: string[]): Promise<number> {
	let options: CliOptions;
	try {
		options = parseFlags(argv);
	} catch (error) {
		process.stderr.write(`i: ${errorMessage(error)}\n`);
		return exitCodes.usage;
	}

	if (options.print !== undefined) {
		const {runPrintMode} = await import('./modes/print-mode.js');
		return runPrintMode(options);
	}

	const {runLineMode} = await import('./modes/line-mode.js');
	return runLineMode(options);
}

export function parseFlags(argv: string[]): CliOptions {
	const cli = meow(helpText, {
		importMeta: import.meta,
		argv,
		pkg: {name: 'i', version: '0'},
		autoHelp: true,
		autoVersion: false,
		allowUnknownFlags: false,
		flags: {
			print: {type: 'string', shortFlag: 'p'},
			json: {type: 'boolean', default: false},
			config: {type: 'string'},
			cwd: {type: 'string', shortFlag: 'C'},
			session: {type: 'string'},
			sessionName: {type: 'string'},
			maxSteps: {type: 'number'},
			yolo: {type: 'boolean', default: false},
			dangerouslySkipPermissions: {type: 'boolean', default: false},
			logo: {type: 'boolean', default: true},
		},
	});
	const {flags, input} = cli;
	if (flags.session !== undefined && flags.sessionName !== undefined) {
		throw new UsageError('--session and --session-name name two different sessions; pass one of them');
	}

	for (const name of ['config', 'cwd', 'session', 'sessionName'] as const) {
		if (flags[name] === '') throw new UsageError(`--${kebab(name)} needs a value`);
	}

	if (flags.maxSteps !== undefined && (!Number.isInteger(flags.maxSteps) || flags.maxSteps < 1 || flags.maxSteps > 1000)) {
		throw new UsageError('--max-steps must be a whole number from 1 to 1000');
	}

	let print = flags.print;
	if (input.length > 0) {
		if (print === undefined) throw new UsageError(`unexpected argument "${input[0]}"; to ask one question, use -p "${input.join(' ')}"`);
		print = [print, ...input].filter(part => part !== '').join(' ');
	}

	return {
		print,
		json: flags.json,
		config: flags.config,
		cwd: flags.cwd,
		session: flags.session,
		sessionName: flags.sessionName,
		maxSteps: flags.maxSteps,
		yolo: flags.yolo || flags.dangerouslySkipPermissions,
		logo: flags.logo,
	};
}

function kebab(name: string): string {
	return name.replaceAll(/[A-Z]/g, letter => `-${letter.toLowerCase()}`);
}
