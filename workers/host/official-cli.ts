// The official host's own entry, bundled into one CommonJS file
// (dist/host/official.cjs) that bin/i.js loads for `i --runtime worker
// official`: a worker started on every run of `i` skips the ES module
// loader and the CLI's chunks.
import {runHostFromArgv} from './official-main.js';

runHostFromArgv();
