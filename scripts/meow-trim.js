// An esbuild plugin that leaves meow's package.json reader out of the bundle.
// meow 14 ships its dependencies in one file whose top level runs
// normalize-package-data's set-up (SPDX tables sorted with localeCompare,
// semver's regular expressions, a Babel code frame, child_process): about
// 30 ms of every start that parses flags, for code that never runs here,
// since parse-command-line.ts always passes `pkg` (so meow searches for no
// package.json) and never reads `result.pkg` (which would normalise it).
// Each edit must match meow's text exactly; a meow that differs fails the
// build, naming the edit, rather than bundling something untested.
import {readFile} from 'node:fs/promises';

const edits = {
	'options.js': [
		[
			"import { a as readPackageUpSync, n as normalizePackageData } from './dependencies.js';",
			"const readPackageUpSync = () => { throw new Error('meow in the i bundle reads no package.json: pass pkg'); };\n" +
				"const normalizePackageData = () => { throw new Error('meow in the i bundle does not normalise package.json: do not read result.pkg'); };",
		],
	],
	'dependencies.js': [
		// Now unused once options.js imports neither: marked pure, esbuild drops them and all they reach.
		['var libExports = requireLib$1();', 'var libExports = /* @__PURE__ */ requireLib$1();'],
		['var normalizeExports = requireNormalize();', 'var normalizeExports = /* @__PURE__ */ requireNormalize();'],
		['const normalizePackageData = getDefaultExportFromCjs(normalizeExports);', 'const normalizePackageData = /* @__PURE__ */ getDefaultExportFromCjs(normalizeExports);'],
		['promisify(execFile);', ''],
	],
};

export const meowTrim = {
	name: 'meow-trim',
	setup(plugin) {
		plugin.onLoad({filter: /[\\/]node_modules[\\/]meow[\\/]build[\\/](options|dependencies)\.js$/}, async args => {
			const file = args.path.split(/[\\/]/).at(-1);
			let text = await readFile(args.path, 'utf8');
			for (const [from, to] of edits[file]) {
				if (!text.includes(from)) throw new Error(`meow-trim: ${args.path} no longer contains ${JSON.stringify(from)}; check the edit against this meow version`);
				text = text.replace(from, to);
			}

			return {contents: text, loader: 'js'};
		});
	},
};
