'use strict';
// Runs a CommonJS file with V8's compiled code of it kept between runs. The
// headless bundle is one file of about 2 MB; compiling what a one-shot runs
// of it is most of what is left of `i -p`'s start-up, and a code cache made
// at the end of one run lets the next one skip it. Node 20 has no module
// compile cache (`module.enableCompileCache` came with 22.1); the one of
// later nodes makes its cache when the file is compiled, before the
// functions a run calls are, so it is used for the rest (chunks, extensions)
// and this for the bundle.
//
// The cache file is named for the bundle (path, size, mtime) and the node
// that made it, so a rebuilt bundle or another node never reads another's
// code: V8 checks only the source's length. It is written at the exit of a
// run that had none (or whose cache V8 refused, or that compiled more than
// its cache held: see requireWithCodeCache), through a temporary
// file renamed into place, and that write removes the caches of older builds
// of the same file (another copy of `i` using the folder keeps its own).
const {mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync} = require('node:fs');
const Module = require('node:module');
const {dirname, join} = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');

const PREFIX = 'headless-';
/** A run that compiled more than its cache held writes it again only past this (a one-shot's node modules alone are about 240 KB). */
const MIN_NEW_CODE_BYTES = 320 * 1024;
const SUFFIX = '.v8';

/** Loads `file` as a CommonJS module compiled with the code cache kept in `folder`; returns its exports. */
function requireWithCodeCache(file, folder) {
	// ASCII (scripts/bundle.js makes it so): read as one-byte text, nothing to decode.
	const source = readFileSync(file, 'latin1');
	const {size, mtimeMs} = statSync(file);
	const cacheFile = join(folder, `${PREFIX}${fnv1a(file)}-${size}-${Math.round(mtimeMs)}-${process.version}-${process.arch}${SUFFIX}`);
	// The caches of this same file's earlier builds (or nodes) go when this one is written; another copy of `i`
	// sharing the folder (a global install and an npx one) keeps its own, or each would write the other's away.
	const samePath = `${PREFIX}${fnv1a(file)}-`;
	let cachedData;
	try {
		cachedData = readFileSync(cacheFile);
	} catch {}

	// An import() in code from a code cache finds no module loader on Node 20
	// (a vm.Script's loader is kept by a key the cache does not carry): the
	// bundle imports extensions through this one instead, compiled by node as
	// usual (scripts/headless-import.cjs).
	Object.defineProperty(globalThis, Symbol.for('i-agent.import-url'), {value: url => import(url), configurable: true});
	const loadedCode = codeBytes();
	const script = new vm.Script(Module.wrap(source), {filename: file, cachedData});
	const fromCache = codeBytes() - loadedCode;
	if (cachedData === undefined || script.cachedDataRejected) process.once('exit', () => keep(script, folder, cacheFile, samePath));
	// A cache holds what the run that made it compiled: made by `i --runtime init` or `i --help`, it lacks most of
	// what a one-shot runs, and every later one-shot compiled that again (about 15% more CPU). A run that compiled
	// more code than its cache gave it writes the cache again, with both; a run the cache served well (a one-shot
	// after a one-shot compiles about a third of what its cache holds, node's own modules included) leaves it.
	// Node's own modules a run loads count too, so a few hundred KB more are never reason enough.
	else process.once('exit', () => codeBytes() - loadedCode - fromCache > Math.max(fromCache, MIN_NEW_CODE_BYTES) && keep(script, folder, cacheFile, samePath));
	const module_ = new Module(file, module);
	module_.filename = file;
	module_.paths = Module._nodeModulePaths(dirname(file));
	script.runInThisContext().call(module_.exports, module_.exports, Module.createRequire(file), module_, file, dirname(file));
	module_.loaded = true;
	return module_.exports;
}

/** Bytecode in this isolate, every script's: what a code cache gave and what a run compiled show in it. */
function codeBytes() {
	return v8.getHeapCodeStatistics().bytecode_and_metadata_size;
}

/** Writes the compiled code as it is at exit, which includes every function the run compiled; a cache that cannot be written is only left out. */
function keep(script, folder, cacheFile, samePath) {
	try {
		mkdirSync(folder, {recursive: true});
		const temporary = `${cacheFile}.${process.pid}.tmp`;
		writeFileSync(temporary, script.createCachedData());
		renameSync(temporary, cacheFile);
		for (const name of readdirSync(folder)) {
			if (name.startsWith(samePath) && join(folder, name) !== cacheFile && (name.endsWith(SUFFIX) || name.endsWith('.tmp'))) rmSync(join(folder, name), {force: true});
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
