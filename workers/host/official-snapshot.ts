// The official host as a V8 start-up snapshot (dist/host/official.blob), run as
// `node --snapshot-blob official.blob bin/i.js --runtime worker official`: the
// process starts with every module but web loaded and initialised, and with
// what a first turn compiles already compiled (a sample turn is served while
// the snapshot is built), about the cost of `node -e 0`. scripts/bundle.js
// builds it with `node --build-snapshot`; web is initialised at its first
// request (a snapshot cannot hold node:http).
import * as v8 from 'node:v8';
import {flushCompiledCode} from './flush-compiled-code.js';
import {officialWorkerModules} from './official.js';
import {runHostFromArgv} from './official-main.js';
import {warmFdIo, warmUp} from './official-warm-up.js';

for (const [module, load] of Object.entries(officialWorkerModules)) if (module !== 'web') void load();
// The sample turn twice, the code compiled so far dropped in between: the second compiles again only what a turn runs,
// so the snapshot holds no code of the modules' set-up, which no host runs again.
warmUp()
	.then(async problems => (flushCompiledCode() ? [...problems, ...(await warmUp())] : problems))
	.then(async problems => {
		await warmFdIo();
		return problems;
	})
	.then(
		problems => {
			for (const problem of new Set(problems)) process.stderr.write(`warm-up: ${problem}\n`);
		},
		(error: unknown) => process.stderr.write(`warm-up: ${String(error)}\n`),
	);
v8.startupSnapshot.setDeserializeMainFunction(runHostFromArgv);
