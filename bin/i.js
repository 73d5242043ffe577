#!/usr/bin/env node
import module from 'node:module';
import {homedir} from 'node:os';
import {isAbsolute, join} from 'node:path';

// Node ≥ 22.1 keeps V8's compiled code of what this process loads (the CLI's
// chunks, or the host's bundle) under <cache_dir>/compile, so a later start
// skips most parsing and compiling. Node 20 has no such cache; a relative
// I_CACHE_DIR is not trusted to name a folder; NODE_DISABLE_COMPILE_CACHE=1
// turns it off, and a folder that cannot be made only leaves it off.
if (module.enableCompileCache) {
	const cacheDir = process.env.I_CACHE_DIR || join(homedir(), '.i', 'cache');
	if (isAbsolute(cacheDir)) module.enableCompileCache(join(cacheDir, 'compile'));
}

// `i --runtime worker official`, the worker host every run with the default
// profile starts, loads its own CommonJS bundle: none of the CLI's chunks.
const [command, kind, name] = process.argv.slice(2);
if (command === '--runtime' && kind === 'worker' && name === 'official') {
	module.createRequire(import.meta.url)('../dist/host/official.cjs');
} else {
	await import('../dist/bundle/cli.js');
}
