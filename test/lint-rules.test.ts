// The lint rules that stand for the architecture fire where they should and
// nowhere else: a small tree of offending and allowed files, linted with the
// project's own biome.json. Without this a typo in a glob would silently
// turn a boundary off.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

// The compiled test runs from dist/test (or a private build's DIR/test): the repository is two levels up.
const root = fileURLToPath(new URL('../../', import.meta.url));
const biome = join(root, 'node_modules', '@biomejs', 'biome', 'bin', 'biome');

/** A module importing each specifier once, on lines 1..n, and using every import. */
function importing(specifiers: string[]): string {
	const lines = specifiers.map((specifier, index) => `import {x${index}} from '${specifier}';`);
	return `${lines.join('\n')}\nexport const all = [${specifiers.map((_, index) => `x${index}`).join(', ')}];\n`;
}

interface Case {
	file: string;
	text: string;
	/** `line rule` for each diagnostic expected; none for a file that must pass. */
	expected: string[];
}

const ui = (file: string, specifiers: string[]): Case => ({file, text: importing(specifiers), expected: specifiers.map((_, index) => `${index + 1} noRestrictedImports`)});

const cases: Case[] = [
	// The core and print/line modes never import the UI, by package name or by relative path.
	ui('source/core/agent/reaches-ui.ts', ['ink', 'react', 'react/jsx-runtime', 'ink-text-input', '../../../components/App.js', '../../tui/run-tui.js']),
	ui('source/core/reaches-ui.ts', ['../tui/store.js', '../../components/Logo.js']),
	ui('source/modes/reaches-ui.ts', ['ink', '../../components/App.js', '../tui/run-tui.js']),
	// Workers never import the UI nor the agent loop.
	ui('workers/reaches-ui.ts', ['ink', 'react', '../components/Logo.js', '../source/tui/store.js']),
	ui('workers/web/reaches-agent.ts', ['../../source/core/agent/compaction.js', '../../source/core/agent/session-schema.js']),
	// Provider adapters never import the agent loop, and (as core) not the UI either.
	ui('source/core/providers/reaches-agent.ts', ['../agent/run-turn.js', '../../../components/App.js', 'ink']),
	// The chat screen never imports the print and line heads; what they share lives in source/shared/.
	ui('source/tui/reaches-modes.ts', ['../modes/output.js', '../modes/render-text.js']),
	ui('components/ReachesModes.tsx', ['../source/modes/print-mode.js']),
	// Native tools and the lifecycle never import the agent loop.
	ui('source/core/tools/reaches-agent.ts', ['../agent/child-agents.js', '../../../components/App.js']),
	ui('source/core/lifecycle/reaches-agent.ts', ['../agent/run-turn.js']),
	// Configuration never imports a provider adapter; the protocol names are shared.
	ui('source/core/config/reaches-provider.ts', ['../providers/deepseek-files/wire.js', '../providers/openai.js', 'ink']),
	// What each may import.
	{file: 'source/core/agent/allowed.ts', text: importing(['../history/transcript.js', '../providers/index.js', 'zod/mini', 'node:fs']), expected: []},
	{file: 'source/core/providers/allowed.ts', text: importing(['../history/messages.js', './sse.js', 'undici']), expected: []},
	{file: 'workers/allowed.ts', text: importing(['../source/core/history/transcript.js', '../source/core/providers/model-caller.js', './serve.js']), expected: []},
	{file: 'source/tui/allowed.ts', text: importing(['ink', 'react', '../../components/App.js', '../core/agent/run-turn.js']), expected: []},
	{file: 'components/allowed.ts', text: importing(['ink', 'react', '../source/tui/store.js']), expected: []},
	{file: 'source/tui/allowed-shared.ts', text: importing(['../shared/output.js', '../core/session/agent.js']), expected: []},
	{file: 'source/core/tools/allowed.ts', text: importing(['../child-request.js', '../session/session-store.js', './types.js']), expected: []},
	{file: 'source/core/config/allowed.ts', text: importing(['../providers/types.js', './schema.js']), expected: []},
	// File names: kebab-case modules, PascalCase component files; test and declaration suffixes are fine.
	{file: 'source/core/CamelCase.ts', text: 'export const a = 1;\n', expected: ['0 useFilenamingConvention']},
	{file: 'components/lower-case.tsx', text: 'export const a = 1;\n', expected: ['0 useFilenamingConvention']},
	{file: 'components/GoodName.tsx', text: 'export const a = 1;\n', expected: []},
	{file: 'components/use-good-hook.ts', text: 'export const a = 1;\n', expected: []},
	{file: 'test/some-part/a-module.test.ts', text: 'export const a = 1;\n', expected: []},
	{file: 'source/ambient-types.d.ts', text: 'export type A = 1;\n', expected: []},
	// A floating promise is an error; `void` marks a deliberate one.
	{file: 'source/core/floating.ts', text: 'async function later(): Promise<void> {}\nlater();\nvoid later();\nexport const a = 1;\n', expected: ['2 noFloatingPromises']},
	// Unused code is an error.
	{file: 'source/core/unused.ts', text: "import {join} from 'node:path';\nconst unused = 1;\nexport const a = 1;\n", expected: ['1 noUnusedImports', '2 noUnusedVariables']},
];

test('the lint rules catch each boundary crossing, bad file name, floating promise and unused import, and nothing that is allowed', () => {
	const tree = mkdtempSync(join(tmpdir(), 'i-lint-'));
	try {
		copyFileSync(join(root, 'biome.json'), join(tree, 'biome.json'));
		for (const {file, text} of cases) {
			mkdirSync(dirname(join(tree, file)), {recursive: true});
			writeFileSync(join(tree, file), text);
		}

		// No git in the temp tree, so no ignore file to read; the formatter is not what is tested here.
		const run = spawnSync(process.execPath, [biome, 'lint', '--vcs-enabled=false', '--reporter=json', '--max-diagnostics=none', '.'], {cwd: tree, encoding: 'utf8'});
		assert.notEqual(run.stdout, '', run.stderr);
		const report = JSON.parse(run.stdout) as {diagnostics: Array<{category: string; location: {path: string; start?: {line: number}}}>};
		const found = report.diagnostics.map(({category, location}) => `${location.path} ${location.start?.line ?? 0} ${category.split('/').at(-1)}`).sort();
		const expected = cases.flatMap(({file, expected}) => expected.map(entry => `${file} ${entry}`)).sort();
		assert.deepEqual(found, expected);
		assert.equal(run.status, 1, 'the offending files fail the lint');
	} finally {
		rmSync(tree, {recursive: true, force: true});
	}
});
