#!/usr/bin/env node
'use strict';
// CommonJS (bin/package.json), so a run that needs no ES module, such as
// `i --version`, never starts node's ES module loader.
const module_ = require('node:module');
const {readFileSync} = require('node:fs');
const {isAbsolute, join} = require('node:path');

const argv = process.argv.slice(2);

// `i --version` alone: the version in our package.json, and nothing else loaded.
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
	process.stdout.write(`${JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version}\n`);
} else {
	// Node ≥ 22.1 keeps V8's compiled code of what this process loads (the CLI's
	// chunks, or the host's bundle) under <cache_dir>/compile, so a later start
	// skips most parsing and compiling. Node 20 has no such cache; a relative
	// I_CACHE_DIR is not trusted to name a folder; NODE_DISABLE_COMPILE_CACHE=1
	// turns it off, and a folder that cannot be made only leaves it off.
	if (module_.enableCompileCache) {
		const cacheDir = process.env.I_CACHE_DIR || join(require('node:os').homedir(), '.i', 'cache');
		if (isAbsolute(cacheDir)) module_.enableCompileCache(join(cacheDir, 'compile'));
	}

	// `i --runtime worker official`, the worker host every run with the default
	// profile starts, loads its own CommonJS bundle: none of the CLI's chunks.
	const [command, kind, name] = argv;
	if (command === '--runtime' && kind === 'worker' && name === 'official') {
		require('../dist/host/official.cjs');
	} else {
		// As a top-level await would: a CLI that cannot load is a crash with its stack, exit 1.
		import('../dist/bundle/cli.js').catch(error => {
			process.stderr.write(`${error?.stack ?? error}\n`);
			process.exit(1);
		});
	}
}
