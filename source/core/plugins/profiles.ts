import type {ModuleName} from './modules.js';

/** Every module but the smoke policies; hook order comes from `moduleHooks`, not from these lists. */
const full: readonly ModuleName[] = ['prompts', 'approval', 'budget', 'compact', 'cache', 'responses', 'memory', 'skills', 'web', 'search'];

/**
 * The profiles of spec/platform.md §1 and §10. `standard` is the default: `full`
 * without the Responses transformation. The budget profiles only measure;
 * the compact ones also compact.
 */
export const profiles = {
	full,
	standard: full.filter(module => module !== 'responses'),
	approval: ['approval'],
	budget: ['budget'],
	compact: ['budget', 'compact'],
	cache: ['cache'],
	responses: ['responses'],
	'responses-budget': ['responses', 'budget'],
	'responses-compact': ['responses', 'budget', 'compact'],
	memory: ['memory'],
	search: ['search'],
	skills: ['skills'],
	web: ['web'],
	smoke: ['smoke'],
	'smoke-thinking': ['smoke-thinking'],
} as const satisfies Record<string, readonly ModuleName[]>;

export type ProfileName = keyof typeof profiles;

export const profileNames = Object.keys(profiles) as ProfileName[];

export const DEFAULT_PROFILE: ProfileName = 'standard';

export function isProfileName(name: string): name is ProfileName {
	return Object.hasOwn(profiles, name);
}

/** The modules a profile selects, minus the disabled ones. */
export function profileModules(profile: ProfileName, disabled: readonly ModuleName[] = []): ModuleName[] {
	return (profiles[profile] as readonly ModuleName[]).filter(module => !disabled.includes(module));
}
