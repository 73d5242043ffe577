import type {AnyFlags} from 'meow';

/** The flags of `i mcp list`, `get`, `login`: where, whether to trust the project for this run, and JSON output. */
export const readFlags = {
	cwd: {type: 'string', shortFlag: 'C'},
	trustProject: {type: 'boolean', default: false},
	json: {type: 'boolean', default: false},
} satisfies AnyFlags;
