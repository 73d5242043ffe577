import type {LifecycleEvent} from '../lifecycle/event-names.js';
import {memoryTools} from './memory-tools.js';
import type {ModuleTool} from './module-tool.js';
import {skillTools} from './skill-tools.js';
import {webTools} from './web-tools.js';

/**
 * The official plugin modules (spec/platform.md §1, §4, §6–§10). Each runs as
 * `i --runtime worker NAME` and speaks the same NDJSON protocol as any
 * third-party worker, so bindings.json can replace it.
 */
export const moduleNames = ['prompts', 'approval', 'budget', 'compact', 'cache', 'responses', 'memory', 'skills', 'web', 'search', 'smoke', 'smoke-thinking'] as const;

export type ModuleName = (typeof moduleNames)[number];

export function isModuleName(name: string): name is ModuleName {
	return (moduleNames as readonly string[]).includes(name);
}

export interface OfficialModule {
	/** Its worker ships in this build. Profiles naming an unbuilt module say so instead of silently running without it. */
	built: boolean;
	/** The tools it registers; null while the module is not built and its tools are not defined yet. */
	tools: readonly ModuleTool[] | null;
	/** It reads `<config_dir>/<name>.json` (or its worker's `--config FILE`); the others take no config file. */
	configFile: boolean;
}

export const officialModules: Record<ModuleName, OfficialModule> = {
	// The system prompt from prompts.json (spec/platform.md §4, §9); prompt templates (spec/extensions.md §8).
	prompts: {built: true, tools: [], configFile: true},
	// The tool_approval policy from approval.json: mode ask|auto, deny_tools.
	approval: {built: true, tools: [], configFile: true},
	// Context budget measurement (spec/platform.md §7): the budget comes from the model config's "budget".
	budget: {built: true, tools: [], configFile: false},
	// Compaction: cut point, summary, commit (spec/platform.md §7).
	compact: {built: true, tools: [], configFile: true},
	// Prompt-cache preparation and observation (spec/platform.md §8).
	cache: {built: true, tools: [], configFile: true},
	// The Responses wire transformation of requests and responses.
	responses: {built: true, tools: [], configFile: false},
	// Memory tools and background injection (spec/platform.md §9).
	memory: {built: true, tools: memoryTools, configFile: true},
	// Skill tools and name/description injection (spec/platform.md §9).
	skills: {built: true, tools: skillTools, configFile: true},
	// Web search and fetch tools (spec/platform.md §9).
	web: {built: true, tools: webTools, configFile: true},
	// glob and search became built-in tools: the module stays selectable but registers nothing.
	search: {built: true, tools: [], configFile: false},
	// The low-cost connectivity policy: no tools, output capped, tool calls rejected (spec/platform.md §10).
	smoke: {built: true, tools: [], configFile: true},
	// The same policy with the output cap at 1024 (spec/platform.md §10): thinking and image checks. Its cap is fixed, so it reads no file.
	'smoke-thinking': {built: true, tools: [], configFile: false},
};

/** The modules that read a config file of their own, in table order. */
export const modulesWithConfigFile: readonly ModuleName[] = moduleNames.filter(name => officialModules[name].configFile);

export interface ModuleHook {
	module: ModuleName;
	events: readonly LifecycleEvent[];
}

/**
 * Every official hook entry, in the one order all profiles share; a profile
 * keeps the entries of its modules. Hooks of one event run in this order, so
 * a module whose work sits at two points of the chain has two entries.
 */
export const moduleHooks: readonly ModuleHook[] = [
	// user_input: a prompt `/name …` becomes that prompt template.
	{module: 'prompts', events: ['system_prompt', 'user_input']},
	// before_compact_commit: the memory snapshot a compaction summarised away is restored (spec/platform.md §7).
	{module: 'memory', events: ['before_turn', 'before_compact_commit']},
	// before_compact_commit: likewise the skills index snapshot.
	{module: 'skills', events: ['before_turn', 'before_compact_commit']},
	{module: 'budget', events: ['context_budget']},
	{module: 'compact', events: ['compact_plan', 'before_compact', 'after_compact', 'before_compact_commit']},
	// Policy edits, then the wire transformation, then cache preparation: spec/platform.md §6 says the
	// prefix must not be rewritten after the cache module predicted its classification.
	// request_retry: the smoke policy's own cache observation counts each physical retry.
	{module: 'smoke', events: ['before_request', 'request_retry']},
	{module: 'smoke-thinking', events: ['before_request', 'request_retry']},
	{module: 'responses', events: ['before_request']},
	{module: 'cache', events: ['before_request', 'request_retry']},
	// spec/platform.md §6: the cache observes a response before the protocol adapter (and the smoke
	// policy) may reject it, so a rejected response is still counted.
	{module: 'cache', events: ['after_response']},
	{module: 'responses', events: ['after_response']},
	{module: 'smoke', events: ['after_response']},
	{module: 'smoke-thinking', events: ['after_response']},
	{module: 'approval', events: ['tool_approval']},
];
