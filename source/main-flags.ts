import type {AnyFlags} from 'meow';
import {parseCommandLine} from './command-line/parse-command-line.js';
import {longFlagNames, unknownFlagError} from './command-line/read-tokens.js';
import {ExtensionFlags} from './core/extensions/cli-flags.js';
import {nearestName} from './core/nearest-name.js';
import {readPermissionMode} from './core/agent/permission-mode.js';
import {commandNames} from './commands/command-names.js';
import {UsageError} from './core/errors.js';
import {helpText} from './help.js';
import type {CliOptions} from './cli-options.js';

/** The bounds of --max-steps: at least one model request, at most this many in one turn. */
const MIN_STEPS = 1;
const MAX_STEPS = 1000;

/** The flags of DESIGN's command line; each may be given once, but --extension, --extensions-dir, --skill and --prompt-template collect every value. */
export const mainFlags = {
	// A switch: the prompt is the words (`i -p explain this file`), so no word after -p is taken as its value.
	print: {type: 'boolean', shortFlag: 'p', default: false},
	json: {type: 'boolean', default: false},
	config: {type: 'string'},
	cwd: {type: 'string', shortFlag: 'C'},
	session: {type: 'string'},
	sessionName: {type: 'string'},
	continue: {type: 'boolean', shortFlag: 'c', default: false},
	resume: {type: 'boolean', default: false},
	maxSteps: {type: 'number'},
	apiKey: {type: 'string'},
	yolo: {type: 'boolean', aliases: ['dangerously-skip-permissions'], default: false},
	permissionMode: {type: 'string'},
	logo: {type: 'boolean', default: true},
	extension: {type: 'string', isMultiple: true, default: []},
	extensionsDir: {type: 'string', isMultiple: true, default: []},
	skill: {type: 'string', isMultiple: true, default: []},
	promptTemplate: {type: 'string', isMultiple: true, default: []},
	// A switch for its --no- form: --no-extensions.
	extensions: {type: 'boolean', default: true},
	trustProject: {type: 'boolean', default: false},
	// A switch for its --no- form: --no-agents-md.
	agentsMd: {type: 'boolean', default: true},
	// A switch for its --no- form: --no-sandbox.
	sandbox: {type: 'boolean', default: true},
	provider: {type: 'string'},
	model: {type: 'string'},
	listModels: {type: 'boolean', default: false},
	version: {type: 'boolean', shortFlag: 'v', default: false},
	help: {type: 'boolean', shortFlag: 'h', default: false},
} satisfies AnyFlags;

export type MainCommandLine = {kind: 'run'; options: CliOptions} | {kind: 'help'; text: string} | {kind: 'version'};

/** Parses the flags of a run of `i` (not a command's); a UsageError names what is wrong. */
export function parseFlags(argv: readonly string[]): MainCommandLine {
	const {flags, input, help, unclaimed} = parseCommandLine(argv, {flags: mainFlags, inputFlags: ['print'], secretFlags: ['apiKey'], takesInput: true, help: helpText, deferUnknown: true});
	// Extension flags (registerFlag) are known only once the extensions load; where none can, an unknown flag is an error now.
	const first = unclaimed[0];
	if (first !== undefined && (flags.help || flags.version || !flags.extensions)) throw unknownFlagError(first.spelling, mainFlags);
	if (flags.help) return {kind: 'help', text: help};
	if (flags.version) return {kind: 'version'};
	if (flags.session !== undefined && flags.sessionName !== undefined) {
		throw new UsageError('--session and --session-name name two different sessions; pass one of them');
	}

	for (const [flag, value] of [
		['--provider', flags.provider],
		['--model', flags.model],
	] as const) {
		if (value !== undefined && value.trim() === '')
			throw new UsageError(`${flag} needs a value: ${flag === '--provider' ? 'a provider id such as deepseek' : 'a model id, or provider/model'} (i --list-models lists them)`);
	}

	sessionFlagConflicts(flags);
	if (flags.listModels && flags.print) throw new UsageError('--list-models lists the catalogue and exits; it does not run a turn: drop -p');
	if (flags.maxSteps !== undefined && !(Number.isInteger(flags.maxSteps) && flags.maxSteps >= MIN_STEPS && flags.maxSteps <= MAX_STEPS)) {
		throw new UsageError(`--max-steps must be a whole number from ${MIN_STEPS} to ${MAX_STEPS} (got ${flags.maxSteps})`);
	}

	const permissionMode = readPermissionMode(flags.permissionMode, flags.yolo);
	// With flags left for the extensions, a word may be one's value: the extension flags decide (ExtensionFlags.finish).
	if (input.length > 0 && !flags.print && unclaimed.length === 0) {
		const command = nearestName(input[0]!, commandNames);
		const guess = command === undefined ? '' : ` (did you mean i ${command}?)`;
		throw new UsageError(`unexpected argument "${input[0]}"${guess}; to ask one question, use -p "${input.join(' ')}"`);
	}

	return {
		kind: 'run',
		options: {
			print: flags.print ? input.join(' ') : undefined,
			json: flags.json,
			config: flags.config,
			cwd: flags.cwd,
			session: flags.session,
			sessionName: flags.sessionName,
			continueLatest: flags.continue,
			resume: flags.resume,
			maxSteps: flags.maxSteps,
			apiKey: flags.apiKey,
			yolo: flags.yolo,
			permissionMode,
			logo: flags.logo,
			extensions: flags.extension,
			extensionDirs: flags.extensionsDir,
			skills: flags.skill,
			promptTemplates: flags.promptTemplate,
			noExtensions: !flags.extensions,
			trustProject: flags.trustProject,
			agentsMd: flags.agentsMd,
			sandbox: flags.sandbox,
			provider: flags.provider,
			model: flags.model,
			listModels: flags.listModels,
			commandLine: new ExtensionFlags({flags: unclaimed, input, takesInput: flags.print, reserved: longFlagNames(mainFlags)}),
		},
	};
}

/** `-c`, `--resume`, `--session` and `--session-name` each say which session to open: at most one of them. */
function sessionFlagConflicts(flags: {continue: boolean; resume: boolean; session?: string | undefined; sessionName?: string | undefined; print: boolean}): void {
	const given = [flags.continue ? '--continue' : null, flags.resume ? '--resume' : null, flags.session === undefined ? null : '--session', flags.sessionName === undefined ? null : '--session-name'].filter(
		flag => flag !== null,
	);
	if (given.length > 1 && (flags.continue || flags.resume)) throw new UsageError(`${given.join(' and ')} each choose the session to open; pass one of them`);
	if (flags.resume && flags.print) throw new UsageError('--resume opens a picker in the chat screen; with -p, use --continue (the latest session) or --session FILE');
}
