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
	// chunks, the host's bundle, extensions) under <cache_dir>/compile, so a
	// later start skips most parsing and compiling; the headless bundle's is
	// kept by bin/code-cache.js, on every node. A relative I_CACHE_DIR is not trusted to
	// name a folder; NODE_DISABLE_COMPILE_CACHE=1 turns both off, and a folder
	// that cannot be made only leaves them off.
	const cacheDir = process.env.I_CACHE_DIR || join(require('node:os').homedir(), '.i', 'cache');
	const compileCache = isAbsolute(cacheDir) && process.env.NODE_DISABLE_COMPILE_CACHE !== '1' ? join(cacheDir, 'compile') : undefined;
	if (module_.enableCompileCache && compileCache) module_.enableCompileCache(compileCache);

	const [command, kind, name] = argv;
	if (command === '--runtime' && kind === 'worker' && name === 'official') {
		// `i --runtime worker official`, the worker host every run with the default
		// profile starts, loads its own CommonJS bundle: none of the CLI's chunks.
		// Its compiled code is kept like the headless bundle's.
		const host = join(__dirname, '..', 'dist', 'host', 'official.cjs');
		if (compileCache) require('./code-cache.js').requireWithCodeCache(host, compileCache);
		else require(host);
	} else if (mayOpenChatScreen()) {
		// As a top-level await would: a CLI that cannot load is a crash with its stack, exit 1.
		import('../dist/bundle/cli.js').catch(error => {
			process.stderr.write(`${error?.stack ?? error}\n`);
			process.exit(1);
		});
	} else {
		runHeadless(compileCache);
	}
}

/**
 * Whether this run may want the chat screen, which only the ES module bundle
 * holds: stdin and stdout are terminals and neither -p nor --json is given
 * (run-cli.ts decides for certain, and hands a headless run that wants it
 * after all to the ES module bundle: scripts/headless-tui.cjs).
 */
function mayOpenChatScreen() {
	const {isatty} = require('node:tty');
	return isatty(0) && isatty(1) && !argv.some(word => word === '-p' || word === '--print' || word.startsWith('--print=') || word === '--json');
}

/**
 * Every other run: the one-file CommonJS bundle, with its compiled code kept
 * between runs by bin/code-cache.js, also where node has a compile cache of
 * its own: node's keeps what was compiled when the file was loaded, the top
 * level and little else, while code-cache.js keeps what the run compiled
 * until its exit.
 */
function runHeadless(compileCache) {
	const bundle = join(__dirname, '..', 'dist', 'bundle', 'headless.cjs');
	const loaded = compileCache ? require('./code-cache.js').requireWithCodeCache(bundle, compileCache) : require(bundle);
	loaded.run(argv);
}
