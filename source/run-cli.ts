import {commandNames} from './commands/command-names.js';
import type {CliOptions} from './cli-options.js';
import {helpOutput} from './help.js';
import {exitCodes, UsageError, errorMessage} from './core/errors.js';

/** Parses flags and runs the chosen head; returns the exit code. */
export async function runCli(argv: string[]): Promise<number> {
	// Before anything can run a command: the shell tool must not read --api-key from this process's command line.
	if (argv.some(word => word.startsWith('--api-key'))) (await import('./command-line/hide-secret-arguments.js')).hideSecretArguments(argv);
	// A command's code loads only for that command: `i -p` never pays for `i install`.
	const command = commandNames.find(name => name === argv[0]);
	// spec/platform.md §4: the provider's file management is a channel of its own, never a turn's.
	if (argv[0] === '--provider-action') {
		const [code, {flushOutput}] = await Promise.all([import('./commands/provider-action.js').then(async ({runProviderAction}) => runProviderAction(argv.slice(1))), import('./shared/output.js')]);
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
		const [code, {flushOutput}] = await Promise.all([run, import('./shared/output.js')]);
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
	await (await import('./shared/output.js')).flushOutput();
	return code;
}

/** `i logo …` is `i --runtime logo …` under a name of its own (DESIGN's brand export); without a command, `i --runtime …`. */
async function runCommand(command: (typeof commandNames)[number] | undefined, args: string[]): Promise<number> {
	switch (command) {
		case 'logo': {
			return (await import('./commands/logo.js')).runLogo(args, 'logo');
		}

		case 'extensions': {
			return (await import('./commands/extensions-list.js')).runExtensionsList(args);
		}

		case 'install': {
			return (await import('./commands/install-command.js')).runInstall(args);
		}

		case 'uninstall': {
			return (await import('./commands/uninstall-command.js')).runUninstall(args);
		}

		case 'dev':
		case 'dev-local': {
			return (await import('./commands/dev-command.js')).runDev(args, {localOnly: command === 'dev-local', runHead});
		}

		case 'auth': {
			const [{runAuth}, {loadRunCatalogue, catalogueAuth}] = await Promise.all([import('./commands/auth-command.js'), import('./commands/run-catalogue.js')]);
			// Every provider a run here could select: the provider package's, the built-ins, models.json's (loaded only when a subcommand needs it).
			const report = (message: string) => process.stderr.write(`i: auth: ${message}\n`);
			return runAuth(args, {catalogue: async selected => catalogueAuth(await loadRunCatalogue({}, report))(selected)});
		}

		case 'mcp': {
			return (await import('./commands/mcp-command.js')).runMcp(args);
		}

		case 'rewind': {
			return (await import('./commands/rewind-command.js')).runRewind(args);
		}

		case undefined: {
			return (await import('./commands/run-runtime.js')).runRuntime(args);
		}
	}
}

/** The chat screen's module, loaded without undici's fetch (import-without-fetch.ts). */
async function loadChatScreen(): Promise<typeof import('./tui/run-tui.js')> {
	// Ink colours through chalk, which reads FORCE_COLOR but not NO_COLOR: say it in chalk's terms before it loads.
	if (process.env.NO_COLOR) process.env.FORCE_COLOR = '0';
	const {importWithoutFetch} = await import('./tui/import-without-fetch.js');
	return importWithoutFetch(async () => import('./tui/run-tui.js'));
}

/**
 * Runs the head a parsed command line asks for: the chat screen when stdin
 * and stdout are terminals (and neither -p nor --json is given), else -p or
 * line mode. `i` runs it for its own flags, `i dev` for the flags after its
 * `--`, with the staged build added (given it by runCommand). Returns the exit code; the caller
 * flushes the output.
 */
export async function runHead(options: CliOptions): Promise<number> {
	// --json wants events, not a screen: it keeps line mode even at a terminal.
	const chatScreen = options.print === undefined && !options.json && process.stdin.isTTY && process.stdout.isTTY;
	// Before any step that has an effect: in the one-file headless bundle
	// (cli-headless.ts) this import hands the whole run to the ES module bundle.
	if (chatScreen) await import('./tui/hand-over.js');
	// Raw at once, while the screen's modules load: keys typed meanwhile are neither echoed over the screen nor held back as a line (run-tui.ts ends it).
	if (chatScreen && !options.listModels && !options.commandLine.pending) process.stdin.setRawMode(true);
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

	if (options.listModels) return (await import('./commands/list-models.js')).runListModels(options);
	if (tui) return tui.runTui(options);
	if (options.resume === true) {
		process.stderr.write('i: --resume opens a picker in the chat screen, which needs a terminal on stdin and stdout; use --continue (the latest session) or --session FILE\n');
		return exitCodes.usage;
	}
	const {keepStdoutForContent, writeErr} = await import('./shared/output.js');
	// The config and the manifests first, then the head's own modules, which load while the workers
	// start (issue 11). Not concurrently: loading and running the head's modules would hold up the
	// reads and imports that lead to the workers' start. The head's set-up reports a failure.
	const [{startPlugins}, {exitOnInterrupt}] = await Promise.all([import('./core/session/start-plugins.js'), import('./shared/interrupt.js')]);
	// Extension code may print: stdout keeps only the answer or the JSON events (docs/extensions/debugging.md).
	keepStdoutForContent();
	const startup = exitOnInterrupt();
	// No config.json: the first provider whose key is set, said once (zero-config-run.ts).
	const zeroConfig = await (await import('./shared/zero-config-run.js')).zeroConfigRun(options);
	if (zeroConfig) writeErr(`i: ${zeroConfig.notice}\n`);
	const run = zeroConfig ? {...options, model: zeroConfig.model} : options;
	const started = startPlugins(run);
	await started.catch(() => {});
	if (options.print === undefined) {
		const {runLineMode} = await import('./modes/line-mode.js');
		// The head listens from its first synchronous step on: no signal falls between the two.
		startup.dispose();
		return runLineMode(run, started);
	}

	const {runPrintMode} = await import('./modes/print-mode.js');
	startup.dispose();
	return runPrintMode(run, started);
}
