// The merge of skill and prompt-template folders (spec/extensions.md §8: configured
// before conventional, project before global, packages last).
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, realpathSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test} from 'node:test';
import {collectResources, type ResourceSources} from '../../source/core/resources/collect-resources.js';
import {DEFAULT_SKILL_FOLDERS, MAX_RESOURCE_FOLDERS} from '../../source/core/resources/resource-folders.js';
import type {Settings} from '../../source/core/extensions/settings-file.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-resources-')));
const workspace = join(root, 'w');
mkdirSync(join(root, 'flag-a'), {recursive: true});
mkdirSync(join(root, 'flag-b'));
writeFileSync(join(root, 'a-file'), '');

const settings = (path: string, skillDirs: string[], promptDirs: string[]): Settings => ({path, extensionDirs: [], packages: [], skillDirs, promptDirs});
const none = {skillPaths: [], promptPaths: [], themePaths: []};

function sources(overrides: Partial<ResourceSources>): ResourceSources {
	return {skills: [], promptTemplates: [], settings: {project: undefined, global: undefined}, discovered: none, workspace, cwd: root, ...overrides};
}

test("nothing beyond the workspace's own folders: the frames carry none", async () => {
	assert.deepEqual(await collectResources(sources({})), {folders: undefined, warnings: []});
	// Settings files without skill or prompt folders change nothing either.
	assert.deepEqual(await collectResources(sources({settings: {project: settings('/p.json', [], []), global: undefined}})), {folders: undefined, warnings: []});
});

test('the order: flags, project settings, the workspace (.claude/skills last of its own), .pi, global settings, extensions; a folder named twice counts where it came first; a kind with nothing named is left out', async () => {
	const {folders} = await collectResources(
		sources({
			skills: ['flag-a', join(root, 'flag-b')],
			settings: {project: settings('/w/.i/settings.json', ['/team', join(root, 'flag-a')], []), global: settings('/c/settings.json', ['/global'], [])},
			discovered: {skillPaths: [{path: '/ext-skills', extension: 'todo'}], promptPaths: [], themePaths: [{path: '/themes', extension: 'todo'}]},
		}),
	);
	assert.deepEqual(folders, {
		skills: [
			{path: join(root, 'flag-a'), origin: '--skill'},
			{path: join(root, 'flag-b'), origin: '--skill'},
			{path: '/team', origin: 'settings /w/.i/settings.json'},
			{path: join(workspace, '.agents/skills'), origin: 'the workspace'},
			{path: join(workspace, '.i/skills'), origin: 'the workspace'},
			{path: join(workspace, '.claude/skills'), origin: 'the workspace'},
			{path: join(workspace, '.pi/skills'), origin: 'the workspace'},
			{path: '/global', origin: 'settings /c/settings.json'},
			{path: '/ext-skills', origin: 'extension todo'},
		],
	});
	const prompts = await collectResources(sources({promptTemplates: ['flag-b'], discovered: {skillPaths: [], promptPaths: [{path: '/p', extension: 'x'}], themePaths: []}}));
	assert.deepEqual(prompts.folders, {
		prompts: [
			{path: join(root, 'flag-b'), origin: '--prompt-template'},
			{path: join(workspace, '.i/prompts'), origin: 'the workspace'},
			{path: join(workspace, '.pi/prompts'), origin: 'the workspace'},
			{path: '/p', origin: 'extension x'},
		],
	});
});

test("pi's .pi/settings.json folders come after .i's and the workspace's own, before .pi/skills and .pi/prompts and the global settings; its problems are warnings", async () => {
	const pi = {
		path: '/w/.pi/settings.json',
		skillDirs: ['/w/.claude/skills', '/pi-team'],
		promptDirs: ['/pi-prompts'],
		problems: ['pi\'s settings /w/.pi/settings.json: "prompts" is not a list of paths, so it is not read'],
	};
	const {folders, warnings} = await collectResources(sources({settings: {project: settings('/w/.i/settings.json', ['/team'], []), pi, global: settings('/c/settings.json', ['/global'], [])}}));
	assert.deepEqual(
		folders?.skills?.map(folder => folder.path),
		['/team', join(workspace, '.agents/skills'), join(workspace, '.i/skills'), join(workspace, '.claude/skills'), '/w/.claude/skills', '/pi-team', join(workspace, '.pi/skills'), '/global'],
	);
	assert.equal(folders?.skills?.find(folder => folder.path === '/pi-team')?.origin, "settings /w/.pi/settings.json (pi's)");
	assert.deepEqual(
		folders?.prompts?.map(folder => folder.path),
		[join(workspace, '.i/prompts'), '/pi-prompts', join(workspace, '.pi/prompts')],
	);
	assert.deepEqual(warnings, pi.problems);
	// pi's settings alone name folders: the frames carry them.
	const alone = await collectResources(sources({settings: {project: undefined, pi: {...pi, skillDirs: [], problems: []}, global: undefined}}));
	assert.equal(alone.folders?.skills, undefined);
	assert.deepEqual(
		alone.folders?.prompts?.map(folder => folder.path),
		[join(workspace, '.i/prompts'), '/pi-prompts', join(workspace, '.pi/prompts')],
	);
});

test('a flag names an existing folder: missing or a file is a usage error naming both the flag and the path', async () => {
	await assert.rejects(collectResources(sources({skills: ['nope']})), {name: 'UsageError', message: `--skill nope: ${join(root, 'nope')} does not exist`});
	await assert.rejects(collectResources(sources({promptTemplates: ['a-file']})), {name: 'UsageError', message: `--prompt-template a-file: ${join(root, 'a-file')} is not a folder`});
});

test(`at most ${MAX_RESOURCE_FOLDERS} folders of a kind: at the limit all are used, past it the rest are left out with a warning`, async () => {
	// The workspace's own folders and .pi/skills come with them.
	const conventional = DEFAULT_SKILL_FOLDERS.length;
	const named = (count: number) => Array.from({length: count}, (_, index) => ({path: `/d/${index}`, extension: 'many'}));
	const at = await collectResources(sources({discovered: {skillPaths: named(MAX_RESOURCE_FOLDERS - conventional), promptPaths: [], themePaths: []}}));
	assert.equal(at.folders?.skills?.length, MAX_RESOURCE_FOLDERS);
	assert.deepEqual(at.warnings, []);
	const past = await collectResources(sources({discovered: {skillPaths: named(MAX_RESOURCE_FOLDERS - conventional + 1), promptPaths: [], themePaths: []}}));
	assert.equal(past.folders?.skills?.length, MAX_RESOURCE_FOLDERS);
	assert.deepEqual(past.warnings, [
		`${MAX_RESOURCE_FOLDERS + 1} skill folders were named; only the first ${MAX_RESOURCE_FOLDERS} are used, from /d/${MAX_RESOURCE_FOLDERS - conventional} (extension many) on they are left out`,
	]);
});
