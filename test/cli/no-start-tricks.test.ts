// Start-up tricks issue 41 removed stay removed where a test can see them:
// the built bundles switch no V8 flag at run time and set no malloc tuning,
// and scripts/bundle.js takes undici and meow as their packages ship them,
// through their public entry points.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {undiciChunk} from '../helpers/import-log.js';

const repository = fileURLToPath(new URL('../../../', import.meta.url));
const dist = join(repository, 'dist');

/** Every file of the built program a run may load: the bundles, the core's API, the host's bundles and bin/. */
function shipped(): string[] {
	const files = (folder: string, ending: RegExp) =>
		readdirSync(folder)
			.filter(name => ending.test(name))
			.map(name => join(folder, name));
	return [...files(join(dist, 'bundle'), /\.c?js$/), ...files(join(dist, 'core'), /\.js$/), ...files(join(dist, 'host'), /\.cjs$/), ...files(join(repository, 'bin'), /\.js$/)];
}

test('no built file switches V8 flags at run time or tunes malloc through GLIBC_TUNABLES', () => {
	const found = shipped().flatMap(file => {
		const text = readFileSync(file, 'utf8');
		const name = file.slice(repository.length);
		return ['setFlagsFromString', 'GLIBC_TUNABLES'].filter(word => text.includes(word)).map(word => `${name}: ${word}`);
	});
	assert.deepEqual(found, []);
});

/** The scripts that build the bundles, and the filters of the esbuild plugins they define. */
function bundleScripts(): Array<{file: string; text: string}> {
	const folder = join(repository, 'scripts');
	return readdirSync(folder).map(name => ({file: `scripts/${name}`, text: readFileSync(join(folder, name), 'utf8')}));
}

/** A plugin's filter in the scripts' text: `onResolve({filter: /…/flags` or `onLoad(…`, character classes and escapes included, and its namespace if it names one. */
const PLUGIN_FILTER = /(onResolve|onLoad)\(\{filter: \/((?:[^/\\\n[]|\\.|\[(?:[^\]\\\n]|\\.)*\])+)\/([a-z]*)(?:, namespace: '([^']*)')?/g;

function pluginFilters(kind: 'onResolve' | 'onLoad'): RegExp[] {
	return bundleScripts().flatMap(({text}) =>
		[...text.matchAll(PLUGIN_FILTER)]
			// A plugin's own namespace holds only its own modules; files are in 'file'.
			.filter(match => match[1] === kind && (match[4] ?? 'file') === 'file')
			.map(match => new RegExp(match[2]!, match[3])),
	);
}

test('the bundles take undici and meow through their public entry points, and edit no shipped file of a dependency', () => {
	const resolves = pluginFilters('onResolve');
	assert.ok(resolves.length > 0, 'the filters of scripts/bundle.js were found');
	for (const specifier of ['undici', 'meow', 'node:http2']) assert.deepEqual(resolves.filter(filter => filter.test(specifier)).map(String), [], `a plugin resolves ${specifier} itself`);
	const loads = pluginFilters('onLoad');
	for (const path of ['/a/node_modules/meow/build/options.js', '/a/node_modules/meow/build/dependencies.js', '/a/node_modules/undici/index.js', '/a/node_modules/any/index.js'])
		assert.deepEqual(loads.filter(filter => filter.test(path)).map(String), [], `a plugin loads ${path} itself`);
	assert.deepEqual(
		bundleScripts()
			.filter(({text}) => /\b(undici|meow)\/(lib|build)\//.test(text))
			.map(({file}) => file),
		[],
		'a script reaches into a package past its entry point',
	);
	// esbuild names each module it bundles in a comment: undici's chunk holds its own index.js.
	const bundle = join(dist, 'bundle');
	const chunk = readdirSync(bundle).find(name => undiciChunk.test(`/bundle/${name}`));
	assert.ok(chunk, "the bundle has undici's chunk");
	assert.ok(/^\/\/ (\S*\/)?node_modules\/undici\/index\.js$/m.test(readFileSync(join(bundle, chunk), 'utf8')), `${chunk} holds no node_modules/undici/index.js`);
});
