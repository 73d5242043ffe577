// bin/code-cache.js: the code cache bin/i.js keeps for the headless bundle on
// every node (Node 20 has no module compile cache; later nodes' one keeps
// less of the bundle than this does). Run on a small CommonJS
// file of the test's own, in child processes, as bin/i.js runs it: the cache
// is written once and read after, named for the file and the node, refused
// and rewritten when it is broken, and the code imports modules through the
// import() code-cache.js offers (scripts/headless-import.cjs), also when it
// came from the cache.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider} from '../fixtures/mock-provider.js';
import {binPath, makeSandbox, runCli} from '../helpers/cli.js';

const codeCache = fileURLToPath(new URL('../../../bin/code-cache.js', import.meta.url));

interface Setup {
	root: string;
	file: string;
	folder: string;
}

function setup(body = "exports.run = argv => { console.log('ran', argv.join(' ')); };"): Setup {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-code-cache-')));
	const file = join(root, 'headless.cjs');
	writeFileSync(file, body);
	writeFileSync(join(root, 'imported.mjs'), 'export const answer = 42;\n');
	return {root, file, folder: join(root, 'compile')};
}

/** Loads the file through code-cache.js in a child node and runs its `run`. */
function load({file, folder}: Setup, ...argv: string[]): {stdout: string; stderr: string; status: number | null} {
	const script = `require(${JSON.stringify(codeCache)}).requireWithCodeCache(${JSON.stringify(file)}, ${JSON.stringify(folder)}).run(${JSON.stringify(argv)})`;
	const run = spawnSync(process.execPath, ['-e', script], {encoding: 'utf8'});
	return {stdout: run.stdout, stderr: run.stderr, status: run.status};
}

const caches = (folder: string) => {
	try {
		return readdirSync(folder).filter(name => name.startsWith('headless-') && name.endsWith('.v8'));
	} catch {
		return [];
	}
};

test('the first run writes one cache, named for the file and the node; the next run reads it and leaves it as it was', () => {
	const box = setup();
	assert.deepEqual(caches(box.folder), []);
	const first = load(box, 'a');
	assert.equal(first.status, 0, first.stderr);
	assert.equal(first.stdout, 'ran a\n');
	const written = caches(box.folder);
	assert.equal(written.length, 1);
	assert.match(written[0]!, new RegExp(`-${process.version.replaceAll('.', '\\.')}-${process.arch}\\.v8$`));
	const path = join(box.folder, written[0]!);
	const before = {bytes: readFileSync(path), mtime: statSync(path).mtimeMs};
	const second = load(box, 'b');
	assert.equal(second.stdout, 'ran b\n');
	// V8 took it: a refused cache would have been written anew.
	assert.deepEqual(caches(box.folder), written);
	assert.equal(statSync(path).mtimeMs, before.mtime);
	assert.deepEqual(readFileSync(path), before.bytes);
});

test('a broken cache is refused by V8, the run works, and the cache is written anew', () => {
	const box = setup();
	load(box);
	const [name] = caches(box.folder);
	const path = join(box.folder, name!);
	const good = readFileSync(path);
	for (const broken of [Buffer.from('not a code cache'), good.subarray(0, good.length >> 1), Buffer.alloc(0)]) {
		writeFileSync(path, broken);
		const run = load(box, 'x');
		assert.equal(run.status, 0, run.stderr);
		assert.equal(run.stdout, 'ran x\n');
		assert.ok(readFileSync(path).length > 64, 'the cache was written again');
	}
});

test('a changed file gets a cache of its own, and the old file’s cache is removed', () => {
	const box = setup();
	load(box);
	const [old] = caches(box.folder);
	writeFileSync(box.file, "exports.run = () => { console.log('changed, and longer than before'); };");
	const run = load(box);
	assert.equal(run.stdout, 'changed, and longer than before\n');
	const now = caches(box.folder);
	assert.equal(now.length, 1);
	assert.notEqual(now[0], old);
});

test('the code imports through the import() code-cache.js offers, in the run that makes the cache and in the runs that read it', () => {
	const box = setup(
		"exports.run = () => { globalThis[Symbol.for('i-agent.import-url')](require('node:url').pathToFileURL(require('node:path').join(__dirname, 'imported.mjs')).href).then(m => console.log('answer', m.answer)); };",
	);
	for (let round = 0; round < 3; round++) {
		const run = load(box);
		assert.equal(run.status, 0, run.stderr);
		assert.equal(run.stdout, 'answer 42\n');
		assert.equal(run.stderr, '');
	}
});

test('a cache folder that cannot be made leaves the run working and writes nothing', () => {
	const box = setup();
	writeFileSync(join(box.root, 'a-file'), '');
	const run = load({...box, folder: join(box.root, 'a-file', 'compile')}, 'y');
	assert.equal(run.status, 0, run.stderr);
	assert.equal(run.stdout, 'ran y\n');
	assert.equal(run.stderr, '');
});

test('bin/i.js runs a headless command through the cache on every node, beside node’s own compile cache where node has one', () => {
	const box = setup();
	const env = {PATH: process.env.PATH, HOME: box.root, I_CACHE_DIR: join(box.root, 'cache'), I_CONFIG_DIR: join(box.root, 'config')};
	const run = spawnSync(process.execPath, [binPath, '--runtime', 'logo', '--plain'], {encoding: 'utf8', env});
	assert.equal(run.status, 0, run.stderr);
	const ours = caches(join(box.root, 'cache', 'compile'));
	assert.equal(ours.length, 1, `caches: ${ours.join(', ')}`);
	// The next run reads it and leaves it as it was.
	const before = statSync(join(box.root, 'cache', 'compile', ours[0]!)).mtimeMs;
	const again = spawnSync(process.execPath, [binPath, '--runtime', 'logo', '--plain'], {encoding: 'utf8', env});
	assert.equal(again.status, 0, again.stderr);
	assert.equal(again.stdout, run.stdout);
	assert.equal(statSync(join(box.root, 'cache', 'compile', ours[0]!)).mtimeMs, before);
});

test('a one-shot turn leaves the compiled code it read as it was: the model request changes no V8 flag the cache depends on', async t => {
	const mock = await startMockProvider();
	t.after(() => mock.close());
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	const folder = join(box.env.I_CACHE_DIR!, 'compile');
	const files = () =>
		new Map(
			readdirSync(folder, {recursive: true, withFileTypes: true})
				.filter(entry => entry.isFile())
				.map(entry => [join(entry.parentPath, entry.name), statSync(join(entry.parentPath, entry.name)).mtimeMs]),
		);
	mock.enqueue({text: 'one'});
	const first = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
	assert.equal(first.code, 0, first.stderr);
	const written = files();
	assert.ok(written.size > 0);
	mock.enqueue({text: 'two'});
	const second = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
	assert.equal(second.stdout, 'two\n');
	assert.deepEqual(files(), written);
});

test('two copies of the program sharing one cache folder keep a cache each: neither write removes the other’s', () => {
	const first = setup();
	const second = setup("exports.run = () => { console.log('the other copy'); };");
	const shared = {...second, folder: first.folder};
	load(first);
	load(shared);
	const both = caches(first.folder);
	assert.equal(both.length, 2, `caches: ${both.join(', ')}`);
	// Each run now reads its own and writes nothing.
	const times = () => both.map(name => statSync(join(first.folder, name)).mtimeMs);
	const before = times();
	assert.equal(load(first, 'again').stdout, 'ran again\n');
	assert.equal(load(shared).stdout, 'the other copy\n');
	assert.deepEqual(caches(first.folder), both);
	assert.deepEqual(times(), before);
});

test('a cache made by a run that used little of the file is written again by a run that compiled more than it held, and then left as it is', () => {
	// `small` uses one function; `big` four thousand more (far past the writer's code and the margin), as a
	// one-shot does after `i --runtime init` made the cache.
	const functions = Array.from(
		{length: 4000},
		(_, index) => `function f${index}(x) { const list = [x, ${index}, 'text ${index}']; return list.map(item => String(item).length).reduce((a, b) => a + b, ${index}); }`,
	);
	const setupBox = setup(
		`${functions.join('\n')}\nexports.run = ([kind]) => { let total = 0; if (kind === 'big') { ${functions.map((_, index) => `total += f${index}(${index});`).join(' ')} } else total = f0(0); console.log(kind, total > 0); };`,
	);
	const cacheOf = () => {
		const [name] = caches(setupBox.folder);
		const path = join(setupBox.folder, name!);
		return {size: statSync(path).size, mtime: statSync(path).mtimeMs, bytes: readFileSync(path)};
	};
	assert.equal(load(setupBox, 'small').stdout, 'small true\n');
	const small = cacheOf();
	assert.equal(load(setupBox, 'small').stdout, 'small true\n');
	assert.deepEqual(cacheOf().bytes, small.bytes, 'a run like the one that made it leaves it');
	assert.equal(load(setupBox, 'big').stdout, 'big true\n');
	const big = cacheOf();
	assert.ok(big.size > small.size * 2, `the cache was written again with what the big run compiled (${small.size} → ${big.size} bytes)`);
	// Now the big run is served by the cache, and so is the small one: neither writes it.
	assert.equal(load(setupBox, 'big').stdout, 'big true\n');
	assert.equal(load(setupBox, 'small').stdout, 'small true\n');
	assert.deepEqual(cacheOf().bytes, big.bytes);
	// Beside it, the writer's count of compiled code; without it (an older i's cache), the next run writes both again.
	const count = join(setupBox.folder, caches(setupBox.folder)[0]!.replace(/\.v8$/, '.code'));
	assert.match(readFileSync(count, 'utf8'), /^\d+$/);
	rmSync(count);
	assert.equal(load(setupBox, 'small').stdout, 'small true\n');
	assert.match(readFileSync(count, 'utf8'), /^\d+$/);
});

test('the CommonJS bundles code-cache.js reads as one-byte text are ASCII', () => {
	for (const bundle of ['../../bundle/headless.cjs', '../../host/official.cjs']) {
		const bytes = readFileSync(fileURLToPath(new URL(bundle, import.meta.url)));
		const first = bytes.findIndex(byte => byte > 0x7f);
		assert.equal(first, -1, `${bundle}: a byte past ASCII at ${first}: ${bytes.subarray(Math.max(0, first - 40), first + 40).toString('utf8')}`);
	}
});

test('the headless bundle’s own code imports from outside the file only through scripts/headless-import.cjs (an import() in code from a code cache finds no loader on Node 20)', () => {
	const text = readFileSync(fileURLToPath(new URL('../../bundle/headless.cjs', import.meta.url)), 'utf8');
	const importers = new Set<string>();
	// esbuild names each bundled module in a comment at the start of a line, before its code.
	let module_ = '';
	for (const line of text.split('\n')) {
		const named = /^\/\/ (\S+)$/.exec(line);
		if (named) module_ = named[1]!;
		else if (/\bimport\(/.test(line.replace(/\/\/.*$/, '')) && !/^\s*(\*|\/\*)/.test(line)) importers.add(module_);
	}

	assert.ok(importers.has('scripts/headless-import.cjs'), `the import() of scripts/headless-import.cjs was found: ${[...importers].join(', ')}`);
	assert.deepEqual(
		[...importers].filter(name => name !== 'scripts/headless-import.cjs' && !name.includes('node_modules/')),
		[],
		'these modules of i call import() themselves: import through source/core/import-url.ts',
	);
});
