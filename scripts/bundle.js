// Bundles the compiled CLI into dist/bundle: one file to parse instead of
// hundreds of modules to resolve, which is most of the start-up time.
// Dynamic imports (execa, diff, the heads, undici) stay separate chunks, loaded only when used.
// The core's API (`i-agent/core`) is bundled into dist/core the same way, so
// the installed package needs none of its dependencies.
import {readFileSync, rmSync, writeFileSync} from 'node:fs';
import {resolve} from 'node:path';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';

// The compiled tree to bundle: dist by default; a private build may name its own.
const dist = process.argv[2] ?? 'dist';
// Chunk names carry content hashes: clear the old ones.
rmSync(`${dist}/bundle`, {recursive: true, force: true});
rmSync(`${dist}/host`, {recursive: true, force: true});
rmSync(`${dist}/core`, {recursive: true, force: true});

const fastWidth = resolve(`${dist}/source/tui/string-width-fast.js`);

/** Ink and its helpers (wrap-ansi, widest-line, cli-truncate…) measure text with our string-width: same widths, no slow first call. */
const stringWidthFast = {
	name: 'string-width-fast',
	setup(plugin) {
		plugin.onResolve({filter: /^string-width$/}, args => (args.importer === fastWidth ? undefined : {path: fastWidth}));
	},
};

/**
 * The provider package (providers/src, TypeScript that esbuild compiles) in
 * place of compiled-providers.ts's undefined: every run loads the package,
 * and from inside the bundle that costs no ES module loader and no files.
 * Its own build (providers/dist, made from the same sources by `npm run
 * build`) is what the unbundled tree and the package's tests import.
 */
const providersEntry = fileURLToPath(new URL('../providers/src/index.ts', import.meta.url));
const compiledProviders = {
	name: 'compiled-providers',
	setup(plugin) {
		plugin.onResolve({filter: /^\.\/compiled-providers\.js$/}, args => (/[\\/]core[\\/]extensions$/.test(args.resolveDir) ? {path: 'compiled-providers', namespace: 'compiled-providers'} : undefined));
		plugin.onLoad({filter: /.*/, namespace: 'compiled-providers'}, () => ({
			contents: `export const compiledProviders = () => import(${JSON.stringify(providersEntry)});`,
			resolveDir: fileURLToPath(new URL('..', import.meta.url)),
			loader: 'js',
		}));
	},
};

/** ES module chunks for Node 20, with lazy imports kept lazy. */
const esmChunks = {
	bundle: true,
	splitting: true,
	format: 'esm',
	platform: 'node',
	target: 'node20',
	// Ink's devtools hook imports it only when DEV=true; it is not installed.
	external: ['react-devtools-core'],
	// React's production build: its development build checks and times every render (several times the CPU).
	define: {'process.env.NODE_ENV': '"production"'},
	// CommonJS dependencies call require(); ESM output needs it defined.
	banner: {js: "import {createRequire as __createRequire} from 'node:module'; const require = __createRequire(import.meta.url);"},
	plugins: [stringWidthFast, compiledProviders],
	logLevel: 'warning',
};
// The search tool's worker thread is a file of its own beside the chunks (search-thread.ts finds it by URL).
const searchWorker = `${dist}/source/core/tools/search-worker.js`;

await build({...esmChunks, entryPoints: {cli: `${dist}/source/cli.js`, 'search-worker': searchWorker}, outdir: `${dist}/bundle`});

// Every run without a chat screen (-p, line mode, --json, the commands, the
// workers) as one CommonJS file beside the chunks: node's CommonJS loader
// reads one file where the ES module loader resolves, links and compiles
// some fifty, and bin/i.js keeps V8's compiled code of this file between
// runs (bin/code-cache.js). The chat screen stays
// in the ES module chunks (scripts/headless-tui.cjs hands such a run over),
// and an extension is imported from outside the file (scripts/headless-import.cjs).
// import.meta.url is the file's own URL: it sits beside the chunks, so every
// URL the code builds from it names the same file as in the chunks.
const headlessTui = {
	name: 'headless-tui',
	setup(plugin) {
		plugin.onResolve({filter: /[\\/]tui[\\/](run-tui|hand-over)\.js$/}, () => ({path: fileURLToPath(new URL('headless-tui.cjs', import.meta.url))}));
		plugin.onResolve({filter: /[\\/]import-url\.js$/}, () => ({path: fileURLToPath(new URL('headless-import.cjs', import.meta.url))}));
	},
};
await build({
	entryPoints: {headless: `${dist}/source/cli-headless.js`},
	outdir: `${dist}/bundle`,
	outExtension: {'.js': '.cjs'},
	bundle: true,
	format: 'cjs',
	platform: 'node',
	target: 'node20',
	external: esmChunks.external,
	define: {...esmChunks.define, 'import.meta.url': '__importMetaUrl', 'import.meta': '__importMeta'},
	banner: {js: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href; const __importMeta = {url: __importMetaUrl};"},
	plugins: [stringWidthFast, compiledProviders, headlessTui],
	logLevel: 'warning',
});
// esbuild escapes what is not ASCII in code (charset 'ascii') but keeps the
// comments it keeps as written: escaped too, the file is ASCII, which
// bin/code-cache.js reads as one-byte text, without decoding UTF-8 (and V8
// keeps a source half the size). `\uXXXX` means the same character in
// strings, identifiers and regular expressions.
/** Escapes what is not ASCII in a CommonJS bundle: bin/code-cache.js reads it as one-byte text (test/cli/code-cache.test.ts checks). */
function asciiOnly(file) {
	const text = readFileSync(file, 'utf8');
	writeFileSync(
		file,
		text.replace(/[^\0-\x7f]/g, char => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`),
	);
}

asciiOnly(`${dist}/bundle/headless.cjs`);

// A build of its own: as a second entry of the CLI's build it would split the
// chunks the CLI loads at start-up by which entries share them. The
// duplicated code costs about a megabyte of disk, nothing at start-up.
await build({...esmChunks, entryPoints: {index: `${dist}/source/core/api/index.js`, 'search-worker': searchWorker}, outdir: `${dist}/core`});

// The official worker host (`i --runtime worker official`, which every run of
// `i` with the default profile starts) as one CommonJS file: no ES module
// loader and no chunk graph to walk. Its modules stay lazy inside the file:
// one is initialised at its first request.
await build({
	entryPoints: {official: `${dist}/workers/host/official-cli.js`},
	outdir: `${dist}/host`,
	outExtension: {'.js': '.cjs'},
	bundle: true,
	format: 'cjs',
	platform: 'node',
	target: 'node20',
	define: {'process.env.NODE_ENV': '"production"'},
	logLevel: 'warning',
});

// The host's bundle is loaded through bin/code-cache.js: ASCII, like the headless bundle's, it is read without decoding.
asciiOnly(`${dist}/host/official.cjs`);
