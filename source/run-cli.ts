import {commandNames} from './commands.js';
import type {ExtensionFlags} from './core/extensions/cli-flags.js';
import type {DevLoop} from './core/extensions/dev-loop.js';
import {helpOutput} from './help.js';
import {exitCodes, UsageError, errorMessage} from './core/errors.js';

export interface CliOptions {
	/** The prompt of -p; '' when -p came without text (read stdin); undefined without -p. */
	print: string | undefined;
	json: boolean;
	config: string | undefined;
	cwd: string | undefined;
	session: string | undefined;
	sessionName: string | undefined;
	/** `-c`, `--continue`: this workspace's latest session. */
	continueLatest?: boolean | undefined;
	/** `--resume`: the chat screen starts with the picker of this workspace's sessions. */
	resume?: boolean | undefined;
	maxSteps: number | undefined;
	/** `--api-key KEY`: for the provider the config selects, this run only; never stored or shown. */
	apiKey: string | undefined;
	yolo: boolean;
	logo: boolean;
	/** `--extension PATH`, repeatable. */
	extensions: string[];
	/** `--extensions-dir DIR`, repeatable. */
	extensionDirs: string[];
	/** `--skill DIR`, repeatable. */
	skills: string[];
	/** `--prompt-template DIR`, repeatable. */
	promptTemplates: string[];
	noExtensions: boolean;
	trustProject: boolean;
	/** False with `--no-agents-md`: no AGENTS.md goes into the system prompt. */
	agentsMd?: boolean | undefined;
	/** `--provider ID`: a catalogue provider for this run. */
	provider?: string | undefined;
	/** `--model ID` or `provider/model`: a catalogue model for this run. */
	model?: string | undefined;
	/** `--list-models`: print the catalogue (with `--json`, a JSON array) and exit. */
	listModels?: boolean | undefined;
	/** Flags no built-in flag is, and the words after them, for the extensions' own flags (registerFlag) to claim. */
	commandLine: ExtensionFlags;
	/** `i dev`: the extension being developed (its first staged build is in `extensions`), rebuilt on change and on /reload. */
	dev?: DevLoop | undefined;
	/** `i dev-local` (`i dev --local-only`): only `extensions` load, and of the settings only the project's (its skills and prompts). */
	localOnly?: boolean | undefined;
}

/** Parses flags and runs the chosen head; returns the exit code. */
export async function runCli(argv: string[]): Promise<number> {
	// Before anything can run a command: the shell tool must not read --api-key from this process's command line.
	if (argv.some(word => word.startsWith('--api-key'))) (await import('./command-line/hide-secret-arguments.js')).hideSecretArguments(argv);
	// A command's code loads only for that command: `i -p` never pays for `i install`.
	const command = commandNames.find(name => name === argv[0]);
	// Seed §4: the provider's file management is a channel of its own, never a turn's.
	if (argv[0] === '--provider-action') {
		const [code, {flushOutput}] = await Promise.all([import('./runtime/provider-action.js').then(async ({runProviderAction}) => runProviderAction(argv.slice(1))), import('./modes/output.js')]);
		await flushOutput();
		return code;
	}

	const late = argv.indexOf('--provider-action');
	if (late > 0 && !argv.slice(0, late).includes('--')) {
		process.stderr.write('i: --provider-action is a channel of its own and comes first: i --provider-action list|delete ID|prune [-C DIR] [--config FILE] …\n');
		return exitCodes.usage;
	}

	if (argv[0] === '--runtime' || command !== undefined) {
		const run = runCommand(command, argv.slice(1));
		const [code, {flushOutput}] = await Promise.all([run, import('./modes/output.js')]);
		await flushOutput();
		return code;
	}

	// Loaded here, not at the top: meow is for runs that parse flags, never for `--runtime worker NAME`.
	const {parseFlags} = await import('./main-flags.js');
	let parsed;
	try {
		parsed = parseFlags(argv);
	} catch (error) {
		if (!(error instanceof UsageError)) throw error;
		process.stderr.write(`i: ${errorMessage(error)}\n`);
		return exitCodes.usage;
	}

	if (parsed.kind === 'help') {
		process.stdout.write(helpOutput(parsed.text));
		return exitCodes.ok;
	}

	if (parsed.kind === 'version') {
		const {version} = await import('./version.js');
		process.stdout.write(`${version()}\n`);
		return exitCodes.ok;
	}

	const code = await runHead(parsed.options);
	await (await import('./modes/output.js')).flushOutput();
	return code;
}

/** `i logo …` is `i --runtime logo …` under a name of its own (DESIGN's brand export); without a command, `i --runtime …`. */
async function runCommand(command: (typeof commandNames)[number] | undefined, args: string[]): Promise<number> {
	switch (command) {
		case 'logo': {
			return (await import('./runtime/logo.js')).runLogo(args, 'logo');
		}

		case 'extensions': {
			return (await import('./runtime/extensions-list.js')).runExtensionsList(args);
		}

		case 'install': {
			return (await import('./runtime/install-command.js')).runInstall(args);
		}

		case 'uninstall': {
			return (await import('./runtime/uninstall-command.js')).runUninstall(args);
		}

		case 'dev':
		case 'dev-local': {
			return (await import('./runtime/dev-command.js')).runDev(args, {localOnly: command === 'dev-local'});
		}

		case 'auth': {
			const [{runAuth}, {loadRunCatalogue, catalogueAuth}] = await Promise.all([import('./runtime/auth-command.js'), import('./runtime/run-catalogue.js')]);
			// Every provider a run here could select: the provider package's, the built-ins, models.json's (loaded only when a subcommand needs it).
			const report = (message: string) => process.stderr.write(`i: auth: ${message}\n`);
			return runAuth(args, {catalogue: async selected => catalogueAuth(await loadRunCatalogue({}, report))(selected)});
		}

		case 'mcp': {
			return (await import('./runtime/mcp-command.js')).runMcp(args);
		}

		case undefined: {
			return (await import('./runtime/run-runtime.js')).runRuntime(args);
		}
	}
}

/** The chat screen's module, loaded without undici's fetch (import-without-fetch.ts). */
async function loadChatScreen(): Promise<typeof import('./tui/run-tui.js')> {
	// In the one-file headless bundle this await hands the run to the ES module bundle and never ends (tui/hand-over.ts).
	await import('./tui/hand-over.js');
	// Ink colours through chalk, which reads FORCE_COLOR but not NO_COLOR: say it in chalk's terms before it loads.
	if (process.env.NO_COLOR) process.env.FORCE_COLOR = '0';
	const {importWithoutFetch} = await import('./tui/import-without-fetch.js');
	return importWithoutFetch(async () => import('./tui/run-tui.js'));
}

/**
 * Runs the head a parsed command line asks for: the chat screen when stdin
 * and stdout are terminals (and neither -p nor --json is given), else -p or
 * line mode. `i` runs it for its own flags, `i dev` for the flags after its
 * `--`, with the staged build added (importing this module, which is loaded
 * already: a module of its own would be one more chunk for every start). Returns the exit code; the caller
 * flushes the output.
 */
export async function runHead(options: CliOptions): Promise<number> {
	// --json wants events, not a screen: it keeps line mode even at a terminal.
	const chatScreen = options.print === undefined && !options.json && process.stdin.isTTY && process.stdout.isTTY;
	// Loaded before any step that has an effect: in the one-file headless bundle
	// (cli-headless.ts) this import hands the whole run to the ES module bundle.
	const tui = chatScreen ? await loadChatScreen() : undefined;
	if (options.commandLine.pending && !options.noExtensions) {
		try {
			await (await import('./command-line/refuse-unclaimed-flags.js')).refuseUnclaimedFlags(options);
		} catch (error) {
			if (!(error instanceof UsageError)) throw error;
			process.stderr.write(`i: ${errorMessage(error)}\n`);
			return exitCodes.usage;
		}
	}

	if (options.listModels) return (await import('./runtime/list-models.js')).runListModels(options);
	if (tui) return tui.runTui(options);
	if (options.resume === true) {
		process.stderr.write('i: --resume opens a picker in the chat screen, which needs a terminal on stdin and stdout; use --continue (the latest session) or --session FILE\n');
		return exitCodes.usage;
	}
	const {keepStdoutForContent} = await import('./modes/output.js');
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
		return runLineMode(options, started);
	}

	const {runPrintMode} = await import('./modes/print-mode.js');
	startup.dispose();
	return runPrintMode(options, started);
}
