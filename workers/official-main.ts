// The official host's own entry, bundled into one CommonJS file
// (dist/host/official.cjs) that bin/i.js loads for `i --runtime worker
// official`: a worker started on every run of `i` skips the ES module
// loader and the CLI's chunks, about half its start-up.
import {errorMessage, exitCodes, UsageError} from '../source/core/errors.js';
import {runOfficialHost} from './official.js';

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
