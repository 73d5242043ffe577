import type {ModuleTool} from './module-tool.js';

/** The skills module's model-facing tools (spec/platform.md §9); its worker is workers/skills/skills.ts. */
export const skillTools: readonly ModuleTool[] = [
	{
		name: 'skill_load',
		description:
			'Load a skill: returns the instructions (the body of its SKILL.md) of a skill listed in the skills context. Load a skill before following it. Scripts a skill mentions are not run by loading it; run them with the shell tool if needed.',
		parameters: {
			type: 'object',
			properties: {name: {type: 'string', description: "The skill's name, as listed in the skills context."}},
			required: ['name'],
			additionalProperties: false,
		},
	},
	{
		name: 'skill_read',
		description:
			'Read a text file that a skill references, by its path relative to the skill\'s folder (e.g. "reference/forms.md"). Paths cannot leave the skill\'s folder; files are at most 64000 bytes of text.',
		parameters: {
			type: 'object',
			properties: {
				name: {type: 'string', description: "The skill's name, as listed in the skills context."},
				path: {type: 'string', description: 'A file path relative to the skill\'s folder, without "..".'},
			},
			required: ['name', 'path'],
			additionalProperties: false,
		},
	},
];
