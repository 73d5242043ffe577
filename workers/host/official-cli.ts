// The official host's own entry, bundled into one CommonJS file
// (dist/host/official.cjs) that bin/i.js loads for `i --runtime worker
// official` when there is no start-up snapshot for this Node.js: a worker
// started on every run of `i` skips the ES module loader and the CLI's
// chunks, about half its start-up.
import {runHostFromArgv} from './official-main.js';

runHostFromArgv();
