import path from 'node:path';
import * as z from 'zod/mini';
import '../../source/core/zod-english.js';
import {resolveFromConfig} from '../../source/core/config/module-config.js';
import type {Entries} from '../context-snapshot/context-snapshot.js';
import {moduleConfigLoader} from '../serve/module-config-loader.js';
import {parseToolArguments} from '../serve/hook-data.js';
import type {WorkerContext, WorkerDefinition} from '../serve/serve.js';
import {snapshotHooks} from '../context-snapshot/snapshot-hooks.js';
import {discoverSkills, type Discovery, type Skill, type SkillRoot} from './discover.js';
import {MAX_ANSWER_WARNINGS} from '../../source/core/pool/response-frame.js';
import {DEFAULT_SKILL_FOLDERS} from '../../source/core/resources/resource-folders.js';
import {isInside} from '../../source/core/tools/paths.js';
import {readSkillText, resolveInSkill} from './safe-read.js';
import {parseWorkerOptions} from '../serve/worker-options.js';

/** `skills.json` (spec/platform.md §4, §9): extra roots, each relative to this file's folder or absolute. */
const skillsConfigSchema = z.strictObject({
	roots: z._default(z.array(z.string().check(z.minLength(1))), []),
});

const source = 'skills';
const loadArguments = z.strictObject({name: z.string()});
const readArguments = z.strictObject({name: z.string(), path: z.string()});

/**
 * `i --runtime worker skills [--config FILE]`: the skills module (spec/platform.md §9).
 * Skills are found afresh on each request in the roots the request's
 * `resources` name (else the workspace's default roots) and the roots
 * skills.json names. before_turn shows the model each
 * skill's name, description and source (never a body) as the "skills"
 * context snapshot; before_compact_commit restores that snapshot when a
 * compaction summarised it away; both tell the person, once, of each root
 * or skill left out and each skill shadowed by an earlier one of its name
 * (the turn goes on with the others). skill_load returns a SKILL.md's body,
 * skill_read a file inside the skill's folder. Nothing here runs a skill's
 * scripts: the model has to use the shell tool, which asks for approval.
 */
export function createWorker(args: string[]): WorkerDefinition {
	const options = parseWorkerOptions('skills', args);
	const config = moduleConfigLoader('skills', skillsConfigSchema, options.config);
	const discover = async (context: WorkerContext): Promise<Discovery> => {
		const loaded = await config(context);
		const roots: SkillRoot[] = [...hostRoots(context), ...loaded.config.roots.map(root => ({path: resolveFromConfig(loaded.path, root), required: true, origin: `root from ${loaded.path}`}))];
		return discoverSkills(roots);
	};

	const reports = new ProblemReports();
	const find = async (context: WorkerContext, name: string): Promise<Skill> => {
		const all = (await discover(context)).skills;
		const skill = all.find(candidate => candidate.name === name);
		if (skill) return skill;
		const known = all.map(candidate => candidate.name);
		throw new Error(`no skill is named ${JSON.stringify(name)}; ${known.length === 0 ? 'no skills were found' : `the skills are: ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', …' : ''}`}`);
	};

	return {
		name: 'skills',
		hooks: snapshotHooks(source, async (_event, context) => {
			const found = await discover(context);
			reports.tell(found.problems, context);
			return index(found.skills, context);
		}),
		tools: {
			async skill_load(data, context) {
				const {name} = parseToolArguments('skill_load', loadArguments, data);
				return {output: (await find(context, name)).body};
			},
			async skill_read(data, context) {
				const {name, path: relative} = parseToolArguments('skill_read', readArguments, data);
				const skill = await find(context, name);
				const file = resolveInSkill(skill.folder, relative);
				return {output: await readSkillText(file, `${JSON.stringify(relative)} of skill "${name}"`)};
			},
		},
	};
}

/**
 * The roots the host named (`--skill`, settings, extensions and the
 * workspace's own, in its order; a missing one is skipped: it may be made
 * later), or without them the workspace's default roots.
 */
function hostRoots(context: WorkerContext): SkillRoot[] {
	const named = context.resources?.skills;
	if (named !== undefined) return named.map(folder => ({path: folder.path, required: false, origin: `folder (from ${folder.origin})`}));
	if (context.workspace === undefined) return [];
	return DEFAULT_SKILL_FOLDERS.map(root => ({path: path.join(context.workspace!, root), required: false, origin: 'default root'}));
}

/** What the model sees of each skill: its name (the key), description and source, never its body. */
function index(skills: readonly Skill[], context: WorkerContext): Entries {
	const shown = (file: string) => (context.workspace !== undefined && isInside(context.workspace, file) ? path.relative(context.workspace, file) : file);
	return Object.fromEntries(skills.map(skill => [skill.name, `${skill.description.trim()}\nsource: ${shown(skill.file)}`]));
}

/**
 * The problems already told, so that each is told once while it lasts (one
 * that goes away and comes back is told again). An answer carries at most
 * MAX_ANSWER_WARNINGS; the rest are told with the next.
 */
class ProblemReports {
	readonly #told = new Set<string>();

	tell(problems: readonly string[], context: WorkerContext): void {
		const current = new Set(problems);
		for (const told of this.#told) if (!current.has(told)) this.#told.delete(told);
		const fresh = [...current].filter(problem => !this.#told.has(problem)).slice(0, MAX_ANSWER_WARNINGS);
		for (const problem of fresh) {
			context.warn(problem);
			this.#told.add(problem);
		}
	}
}
