'use strict';
// Runs a CommonJS file with V8's compiled code of it kept between runs:
// compiling what a one-shot runs of the headless bundle is much of `i -p`'s
// start-up, and a code cache made at the end of one run lets the next one
// skip it (what it buys: docs/dev/performance.md). Node 20 has no module
// compile cache (`module.enableCompileCache` came with 22.1); the one of
// later nodes makes its cache when the file is compiled, before the
// functions a run calls are, so it is used for the rest (chunks, extensions)
// and this for the bundle.
//
// The cache file is named for the bundle (path, size, mtime) and the node
// that made it, so a rebuilt bundle or another node never reads another's
// code: V8 checks only the source's length. It is written at the exit of a
// run that had none (or whose cache V8 refused, or that compiled much more
// than the run that wrote it: compiledMuchMore), through a temporary
// file renamed into place, and that write removes the caches of older builds
// of the same file (another copy of `i` using the folder keeps its own).
//
// Its two rules for the bundles it runs, both checked by
// test/cli/code-cache.test.ts: they are ASCII (scripts/bundle.js escapes the
// rest), and their own code imports from outside the file only through
// scripts/headless-import.cjs.
const {mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync} = require('node:fs');
const Module = require('node:module');
const {basename, dirname, join} = require('node:path');
const vm = require('node:vm');

/** Beside a cache: the bytecode in the isolate of the run that wrote it, at its exit. */
const CODE_SUFFIX = '.code';
/** A run whose compiled code at exit is past this much of its cache writer's writes the cache again… */
const REWRITE_FACTOR = 1.25;
/** …and past this many bytes more: a one-shot after `i --runtime init` made the cache has about 700 KB more. */
const REWRITE_MARGIN_BYTES = 64 * 1024;
const SUFFIX = '.v8';

/** Loads `file` as a CommonJS module compiled with the code cache kept in `folder`; returns its exports. */
function requireWithCodeCache(file, folder) {
	// ASCII (scripts/bundle.js makes it so): read as one-byte text, nothing to decode.
	const source = readFileSync(file, 'latin1');
	const {size, mtimeMs} = statSync(file);
	// Named for the bundle (headless-…, official-…), its path, size and mtime, and the node.
	const prefix = `${basename(file).replace(/\.c?js$/, '')}-`;
	const cacheFile = join(folder, `${prefix}${fnv1a(file)}-${size}-${Math.round(mtimeMs)}-${process.version}-${process.arch}${SUFFIX}`);
	// The caches of this same file's earlier builds (or nodes) go when this one is written; another copy of `i`
	// sharing the folder (a global install and an npx one) keeps its own, or each would write the other's away.
	const samePath = `${prefix}${fnv1a(file)}-`;
	let cachedData;
	try {
		cachedData = readFileSync(cacheFile);
	} catch {}

	// An import() in code from a code cache finds no module loader on Node 20
	// (a vm.Script's loader is kept by a key the cache does not carry): the
	// bundle imports extensions through this one instead, compiled by node as
	// usual (scripts/headless-import.cjs).
	Object.defineProperty(globalThis, Symbol.for('i-agent.import-url'), {value: url => import(url), configurable: true});
	const script = new vm.Script(Module.wrap(source), {filename: file, cachedData});
	const save = () => keep(script, folder, cacheFile, samePath);
	if (cachedData === undefined || script.cachedDataRejected) process.once('exit', save);
	else process.once('exit', () => compiledMuchMore(cacheFile) && save());
	const module_ = new Module(file, module);
	module_.filename = file;
	module_.paths = Module._nodeModulePaths(dirname(file));
	script.runInThisContext().call(module_.exports, module_.exports, Module.createRequire(file), module_, file, dirname(file));
	module_.loaded = true;
	return module_.exports;
}

/**
 * Whether this run, at its exit, holds much more compiled code than the run
 * that wrote its cache did (`<cache>.code`, written beside it). A cache holds
 * what the run that made it compiled: made by `i --runtime init` (the quick
 * start's first command) or `i --help`, it lacks most of what a one-shot
 * runs, and every later one-shot compiled that again; such a run writes the
 * cache again, with both. One count of the isolate's bytecode at exit; node's
 * own modules count too, hence the margin.
 */
function compiledMuchMore(cacheFile) {
	let written;
	try {
		written = Number(readFileSync(codeFileOf(cacheFile), 'utf8'));
	} catch {}

	return !(written >= 0) || codeBytes() > written * REWRITE_FACTOR + REWRITE_MARGIN_BYTES;
}

/** Bytecode in this isolate, every script's. */
function codeBytes() {
	return require('node:v8').getHeapCodeStatistics().bytecode_and_metadata_size;
}

function codeFileOf(cacheFile) {
	return `${cacheFile.slice(0, -SUFFIX.length)}${CODE_SUFFIX}`;
}

/** Writes the compiled code as it is at exit, which includes every function the run compiled; a cache that cannot be written is only left out. */
function keep(script, folder, cacheFile, samePath) {
	try {
		mkdirSync(folder, {recursive: true});
		const temporary = `${cacheFile}.${process.pid}.tmp`;
		writeFileSync(temporary, script.createCachedData());
		renameSync(temporary, cacheFile);
		// Not atomic, and need not be: a torn or missing count makes the next run write the cache again, nothing worse.
		writeFileSync(codeFileOf(cacheFile), String(codeBytes()));
		for (const name of readdirSync(folder)) {
			if (name.startsWith(samePath) && join(folder, name) !== cacheFile && join(folder, name) !== codeFileOf(cacheFile) && (name.endsWith(SUFFIX) || name.endsWith(CODE_SUFFIX) || name.endsWith('.tmp')))
				rmSync(join(folder, name), {force: true});
		}
	} catch {}
}

/** A short name for a path (32-bit FNV-1a, in hex): node:crypto would cost more to load than this whole file. */
function fnv1a(text) {
	let hash = 0x811c9dc5;
	for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193) >>> 0;
	return hash.toString(16).padStart(8, '0');
}

module.exports = {requireWithCodeCache};
