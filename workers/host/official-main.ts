import {errorMessage, exitCodes, UsageError} from '../../source/core/errors.js';
import {runOfficialHost} from './official.js';

/**
 * The official host from the command line, `… --runtime worker official`:
 * serves until EOF, then exits with the code. The entry of the host's own
 * bundle (official-cli.ts), which skips the CLI.
 */
export function runHostFromArgv(): void {
	const args = process.argv.slice(2);
	if (args[0] !== '--runtime' || args[1] !== 'worker' || args[2] !== 'official') {
		process.stderr.write(`i: the official worker host runs as \`i --runtime worker official\` (got ${JSON.stringify(args)})\n`);
		process.exit(exitCodes.usage);
	}

	runOfficialHost(args.slice(3)).then(
		code => process.exit(code),
		(error: unknown) => {
			process.stderr.write(`i: ${errorMessage(error)}\n`);
			process.exit(error instanceof UsageError ? exitCodes.usage : 1);
		},
	);
}
