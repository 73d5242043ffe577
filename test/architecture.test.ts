import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

const source = fileURLToPath(new URL('../../source', import.meta.url));

function files(dir: string): string[] {
	return readdirSync(dir, {withFileTypes: true}).flatMap(entry => (entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []));
}

const importPattern = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function imports(file: string): string[] {
	return [...readFileSync(file, 'utf8').matchAll(importPattern)].map(match => match[1] ?? match[2]!);
}

test('the headless core never imports React, Ink or the components', () => {
	const core = files(join(source, 'core'));
	assert.ok(core.length > 20, 'the scan found the core');
	const offenders = core.flatMap(file =>
		imports(file)
			.filter(specifier => /^(react|ink)(\/|$)|^ink-|^react-|\/components\//.test(specifier))
			.map(specifier => `${file}: ${specifier}`),
	);
	assert.deepEqual(offenders, []);
});

test('print and line mode reach the core only, never the UI', () => {
	const modes = files(join(source, 'modes'));
	const offenders = modes.flatMap(file => imports(file).filter(specifier => /^(react|ink)|components\//.test(specifier)));
	assert.deepEqual(offenders, []);
});

test('the source uses zod/mini, never classic zod, which cannot be tree-shaken out of the bundle', () => {
	const offenders = files(source).flatMap(file =>
		imports(file)
			.filter(specifier => specifier === 'zod' || (specifier.startsWith('zod/') && !['zod/mini', 'zod/v4/locales/en.js'].includes(specifier)))
			.map(specifier => `${file}: ${specifier}`),
	);
	assert.deepEqual(offenders, []);
});

test('workers and provider adapters never import the agent loop: what they share with it lives in core/history', () => {
	const workers = fileURLToPath(new URL('../../workers', import.meta.url));
	const checked = [...files(workers), ...files(join(source, 'core', 'providers'))];
	assert.ok(checked.length > 20, 'the scan found the workers and the adapters');
	const offenders = checked.flatMap(file =>
		imports(file)
			.filter(specifier => /(^|\/)core\/agent\/|^\.\.\/agent\//.test(specifier))
			.map(specifier => `${file}: ${specifier}`),
	);
	assert.deepEqual(offenders, []);
});

test('no head copies the agent object: no spread of it and no Object.assign onto or from it in the chat screen, the modes, the core API or the components', () => {
	// A head holds the agent by reference (docs/dev/architecture.md); a copy would keep the model, tools and session it had when copied.
	const heads = [join(source, 'tui'), join(source, 'modes'), join(source, 'core', 'api'), fileURLToPath(new URL('../../components', import.meta.url))];
	const scanned = heads.flatMap(dir =>
		readdirSync(dir, {recursive: true, encoding: 'utf8'})
			.filter(name => /\.tsx?$/.test(name))
			.map(name => join(dir, name)),
	);
	assert.ok(scanned.length > 20, 'the scan found the heads');
	// `agent`, `this.agent`, `props.agent`, `this.#agent` itself (not one of its fields, `...agent.tools`): spread, assigned onto or from, or cloned.
	const agent = String.raw`(?:[\w$#]+\.)*#?agent\b(?!\s*(?:\?\.|\.|\[))`;
	const copy = new RegExp(String.raw`\.\.\.\s*${agent}|Object\.assign\((?:[^;]*?,\s*)?\s*${agent}|structuredClone\(\s*${agent}`);
	const offenders = scanned.flatMap(file =>
		readFileSync(file, 'utf8')
			.split('\n')
			.flatMap((line, index) => (copy.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
	);
	assert.deepEqual(offenders, []);
});
