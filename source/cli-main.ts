/**
 * What a run of `i` does, for both entries: the ES module bundle
 * (`cli.ts`, which the chat screen needs) and the one-file CommonJS bundle
 * for every run without a chat screen (`cli-headless.ts`). `--version` and
 * `--help` alone answer before anything heavy is loaded (meow included),
 * so they cost little more than starting node itself; every other command
 * line is parsed by meow in run-cli.ts.
 */
export async function main(argv: string[]): Promise<void> {
	const only = argv.length === 1 ? argv[0] : undefined;
	if (only === '--version' || only === '-v') {
		const {version} = await import('./version.js');
		process.stdout.write(`${version()}\n`);
	} else if (only === '--help' || only === '-h') {
		// The same text meow formats from help.ts in the flag-parsing path (run-cli.ts): one source.
		const {helpOutput, helpText} = await import('./help.js');
		process.stdout.write(helpOutput(helpText));
	} else {
		const {runCli} = await import('./run-cli.js');
		const code = await runCli(argv);
		// runCli has flushed stdout and stderr; idle keep-alive sockets or a
		// paused stdin must not hold the process open.
		process.exit(code);
	}
}
