// The extension guides the `docs` tool serves (docs/extensions/*.md) stay
// true to the code: every slot they name is one of ExtensionApi and every
// slot the host fills is documented; the slots called absent are absent;
// every event tag they name exists, the ones called fired are the ones the
// source fires, with their classes; the limits they state are the code's;
// i-agent/extension exports every type the API has.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import ts from 'typescript';
import {loadExtensions, REGISTER_TIMEOUT_MS} from '../../source/core/extensions/load-extensions.js';
import {eventClass, eventTags, isEventTag} from '../../source/core/extensions/event-tags.js';
import {CANCEL_GRACE_MS, DEFAULT_EXTENSION_TOOL_TIMEOUT_SECONDS} from '../../source/core/extensions/extension-tool.js';
import {MAX_TOOL_DESCRIPTION_CHARS, MAX_TOOL_NAME_LENGTH, MAX_TOOL_TIMEOUT_SECONDS} from '../../source/core/extensions/check-tool.js';
import {OBSERVE_QUEUE_LIMIT} from '../../source/core/extensions/event-bus.js';
import {MAX_EXTENSION_HEADERS, MAX_HEADER_VALUE_CHARS} from '../../source/core/extensions/provider-headers.js';
import {MAX_TOOL_UPDATE_CHARS} from '../../source/core/agent/run-tool-call.js';
import {nativeToolNames} from '../../source/core/tools/native-tool-names.js';
import {DOCS_TOPICS} from '../../source/core/tools/docs.js';

/** The repository, above the compiled tree (dist/ or a private build). */
const repository = fileURLToPath(new URL('../../../', import.meta.url));
const guide = (topic: string) => readFileSync(join(repository, 'docs', 'extensions', `${topic}.md`), 'utf8');
const authoring = guide('authoring');

/**
 * Interfaces of the extension contract and their members, and every type it
 * exports, read from the source with TypeScript: api.ts and the files of its
 * parts it re-exports (api-tools.ts, api-providers.ts, api-runtime.ts).
 */
function apiSource(): {members: Map<string, string[]>; exported: Set<string>} {
	const folder = join(repository, 'source', 'core', 'extensions');
	const members = new Map<string, string[]>();
	const exported = new Set<string>();
	// A Set's loop visits what is added during it: the parts api.ts names are read after it.
	const files = new Set(['api.ts']);
	for (const name of files) {
		const path = join(folder, name);
		const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2023, true);
		for (const statement of file.statements) {
			if (ts.isInterfaceDeclaration(statement))
				members.set(
					statement.name.text,
					statement.members.flatMap(member => (member.name && ts.isIdentifier(member.name) ? [member.name.text] : [])),
				);
			if ((ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) && statement.modifiers?.some(modifier => modifier.kind === ts.SyntaxKind.ExportKeyword))
				exported.add(statement.name.text);
			if (name === 'api.ts' && ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
				files.add(statement.moduleSpecifier.text.replace(/^\.\//, '').replace(/\.js$/, '.ts'));
			}
		}
	}

	return {members, exported};
}

const {members, exported} = apiSource();
const apiSlots = new Set(members.get('ExtensionApi'));

/** The slots of the api a real `register` receives from this host, and the actions of its `runtime`. */
async function hostSlots(): Promise<{slots: string[]; runtime: string[]}> {
	const dir = mkdtempSync(join(tmpdir(), 'i-guides-'));
	try {
		writeFileSync(join(dir, 'probe.mjs'), 'export default api => { globalThis.__guideSlots = {slots: Object.keys(api), runtime: Object.keys(api.runtime ?? {})}; };');
		const {extensions, reports} = await loadExtensions({candidates: [{path: join(dir, 'probe.mjs'), origin: 'flag', project: false, listedIn: '--extension'}], trusted: false, takenToolNames: new Map()});
		assert.equal(extensions.length, 1, JSON.stringify(reports));
		return (globalThis as {__guideSlots?: {slots: string[]; runtime: string[]}}).__guideSlots!;
	} finally {
		rmSync(dir, {recursive: true, force: true});
	}
}

/** `api.NAME` anywhere in a text, code included. */
const namedSlots = (text: string) => new Set([...text.matchAll(/\bapi\.([A-Za-z_]\w*)/g)].map(match => match[1]!));
/** The backticked words of the paragraph that starts with `lead`. */
function listAfter(text: string, lead: string): string[] {
	const start = text.indexOf(lead);
	assert.notEqual(start, -1, `the guide has a paragraph starting "${lead}"`);
	const paragraph = text.slice(start, text.indexOf('\n\n', start) === -1 ? undefined : text.indexOf('\n\n', start));
	return [...paragraph.matchAll(/`([^`]+)`/g)].map(match => match[1]!);
}

test('the guides are the docs tool topics, one file each', () => {
	assert.deepEqual(readdirSync(join(repository, 'docs', 'extensions')).sort(), DOCS_TOPICS.map(topic => `${topic}.md`).sort());
});

test('every slot a guide names exists in ExtensionApi, and every slot the host fills is in the authoring guide', async () => {
	for (const topic of DOCS_TOPICS) {
		for (const slot of namedSlots(guide(topic))) assert.ok(apiSlots.has(slot), `docs/extensions/${topic}.md names api.${slot}, which ExtensionApi (source/core/extensions/api.ts) does not have`);
	}

	const documented = namedSlots(authoring);
	const {slots: filled, runtime} = await hostSlots();
	for (const slot of filled) assert.ok(documented.has(slot), `the host fills api.${slot}; the authoring guide does not document it`);
	for (const slot of apiSlots) assert.ok(documented.has(slot), `ExtensionApi has ${slot}; the authoring guide does not document it`);
	// Runtime actions: every one the host has, and every one the type names, is written api.runtime.NAME in the guide.
	const actions = new Set([...authoring.matchAll(/\bapi\.runtime\.(\w+)/g)].map(match => match[1]!));
	const typed = new Set(members.get('ExtensionRuntime'));
	for (const action of actions) assert.ok(typed.has(action), `the authoring guide names api.runtime.${action}, which ExtensionRuntime does not have`);
	for (const action of [...runtime, ...typed]) assert.ok(actions.has(action), `the host has api.runtime.${action}; the authoring guide does not document it`);
	// What the guide calls absent is absent: from the type, the api the host hands out, and its runtime.
	const absent = authoring.includes('Absent in this version') ? listAfter(authoring, 'Absent in this version') : [];
	for (const name of absent) {
		assert.ok(!apiSlots.has(name) && !filled.includes(name) && !typed.has(name) && !runtime.includes(name), `the authoring guide calls ${name} absent, but this host has it: document it`);
	}
});

test('i-agent/extension exports every type of the extension API', () => {
	const path = join(repository, 'source', 'core', 'api', 'extension.ts');
	const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2023, true);
	const reexported = file.statements.flatMap(statement =>
		ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause) ? statement.exportClause.elements.map(element => element.name.text) : [],
	);
	assert.deepEqual(reexported.sort(), [...exported].sort());
});

test('every event tag the guides name exists; every tag is in the authoring guide, fired or not', () => {
	// Code words in PascalCase are tags, names the api types export, or JavaScript's own.
	// `ExtensionAPI` is pi's, named as what is not here.
	const known = new Set([...eventTags, ...exported, 'TypeError', 'ExtensionAPI']);
	for (const topic of DOCS_TOPICS) {
		const text = guide(topic);
		for (const [, word] of text.matchAll(/`([A-Z][A-Za-z]+)`/g)) assert.ok(known.has(word!), `docs/extensions/${topic}.md names \`${word}\`: no event tag nor type of the extension API`);
		for (const [, tag] of text.matchAll(/registerEventHandler\??\.?\(\s*'([^']+)'/g)) assert.ok(isEventTag(tag), `docs/extensions/${topic}.md registers a handler for ${tag}, which is no event tag`);
		for (const [, field] of text.matchAll(/\bctx\.(\w+)/g)) {
			assert.ok([...members.get('ExtensionToolContext')!, ...members.get('EventContext')!, ...members.get('CommandContext')!].includes(field!), `docs/extensions/${topic}.md names ctx.${field}`);
		}
	}

	for (const tag of eventTags) assert.ok(authoring.includes(`\`${tag}\``), `the authoring guide never names ${tag}`);
});

/** The tags the source fires: the first argument of each EventBus call. */
function firedInSource(): Set<string> {
	const fired = new Set<string>();
	const walk = (dir: string) => {
		for (const entry of readdirSync(dir, {withFileTypes: true})) {
			const path = join(dir, entry.name);
			if (entry.isDirectory()) walk(path);
			else if (entry.name.endsWith('.ts')) for (const [, tag] of readFileSync(path, 'utf8').matchAll(/\.(?:observe|advisory|transform|gate|veto)\(\s*'([A-Za-z]+)'/g)) fired.add(tag!);
		}
	};

	walk(join(repository, 'source'));
	return fired;
}

test('the events the authoring guide calls fired are the ones the source fires, each with its class', () => {
	const section = authoring.slice(authoring.indexOf('### The events this version fires'), authoring.indexOf('\n## ', authoring.indexOf('### The events this version fires')));
	const rows = section.split('\n').filter(line => /^\| `[A-Z]/.test(line));
	const fired = new Map<string, string>();
	for (const row of rows) {
		const [tags, cls] = row.split(' | ');
		for (const [, tag] of tags!.matchAll(/`(\w+)`/g)) fired.set(tag!, cls!.trim());
	}

	const source = firedInSource();
	assert.deepEqual([...fired.keys()].sort(), [...source].sort(), 'the table of fired events against the tags source/ fires');
	for (const [tag, cls] of fired) assert.equal(cls, eventClass(tag as (typeof eventTags)[number]), `${tag}'s class`);
	const notFired = listAfter(authoring, 'Not fired in this version');
	assert.deepEqual([...notFired].sort(), eventTags.filter(tag => !source.has(tag)).sort(), 'the not-fired list is every other tag');
});

test('the limits and native tools the authoring guide states are the code’s', () => {
	// Read as one line: a guide reflowed is the same guide.
	const flat = authoring.replaceAll(/\s+/g, ' ');
	for (const phrase of [
		`1–${MAX_TOOL_NAME_LENGTH} of A-Z a-z 0-9 _ -`,
		`what the model reads; at most ${MAX_TOOL_DESCRIPTION_CHARS} characters`,
		`at most ${MAX_TOOL_UPDATE_CHARS} characters are shown`,
		`It must finish within ${REGISTER_TIMEOUT_MS / 1000} s`,
		`gets ${CANCEL_GRACE_MS / 1000} s, then the call ends as cancelled`,
		`a call that has not settled after ${DEFAULT_EXTENSION_TOOL_TIMEOUT_SECONDS} s`,
		`the tool's own \`timeoutSeconds\` (1 to ${MAX_TOOL_TIMEOUT_SECONDS})`,
		`(at most ${OBSERVE_QUEUE_LIMIT};`,
		`At most ${MAX_EXTENSION_HEADERS} headers, each value at most ${MAX_HEADER_VALUE_CHARS} characters`,
	]) {
		assert.ok(flat.includes(phrase), `the authoring guide says "${phrase}"`);
	}

	const native = /not a native one \(([^)]*)\)/.exec(flat);
	assert.ok(native, 'the authoring guide lists the native tools');
	assert.deepEqual(
		[...native[1]!.matchAll(/`([^`]+)`/g)].map(match => match[1]),
		[...nativeToolNames],
	);
});
