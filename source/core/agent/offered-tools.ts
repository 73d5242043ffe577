import type {EmitEvent} from '../events.js';
import type {ToolSchema} from '../providers/types.js';
import {toolOwner} from '../tools/tool-owner.js';
import type {Tool} from '../tools/types.js';

/**
 * Tools one model request offers at most: OpenAI's Chat Completions refuses
 * a request with more than 128 functions, the strictest of the wire
 * protocols i speaks, and more would only spend the context window.
 */
export const MAX_OFFERED_TOOLS = 128;

/** Owners named in the warning; the rest are counted. */
const NAMED_OWNERS = 5;

/** The tools of one request: the schemas sent and the tools that may run are one list. */
export interface RequestTools {
	toolMap: ReadonlyMap<string, Tool>;
	schemas: ToolSchema[];
}

/**
 * The tools of each request of a turn, `fixed` then what `more` lists now
 * (the MCP servers'), the first MAX_OFFERED_TOOLS of them. Those past the
 * cap are neither offered nor run, and a warning names whose they are,
 * once per turn for each different set left out.
 */
export function requestTools(fixed: readonly Tool[], more: (() => readonly Tool[]) | null | undefined, emit: EmitEvent): () => RequestTools {
	const build = (all: readonly Tool[]): RequestTools => {
		const offered = all.slice(0, MAX_OFFERED_TOOLS);
		return {toolMap: new Map(offered.map(tool => [tool.name, tool])), schemas: toolSchemas(offered)};
	};

	const fixedTools = build(fixed);
	let warned: string | null = null;
	return () => {
		const extra = more?.() ?? [];
		const all = extra.length === 0 ? fixed : [...fixed, ...extra];
		const leftOut = leftOutWarning(all);
		if (leftOut !== null && leftOut !== warned) {
			warned = leftOut;
			emit({type: 'warning', message: leftOut});
		}

		return extra.length === 0 ? fixedTools : build(all);
	};
}

/** Why tools past the cap were not offered, naming whose they are; null when all fit. */
export function leftOutWarning(all: readonly Tool[]): string | null {
	if (all.length <= MAX_OFFERED_TOOLS) return null;
	const counts = new Map<string, number>();
	for (const tool of all.slice(MAX_OFFERED_TOOLS)) counts.set(toolOwner(tool), (counts.get(toolOwner(tool)) ?? 0) + 1);
	const owners = [...counts];
	const named = owners.slice(0, NAMED_OWNERS).map(([owner, count]) => `${count} of ${owner}`);
	const rest = owners.length > NAMED_OWNERS ? ` and tools of ${owners.length - NAMED_OWNERS} more` : '';
	return `${all.length} tools are registered, and a model request offers at most ${MAX_OFFERED_TOOLS} (MAX_OFFERED_TOOLS); the model is not offered the last ${all.length - MAX_OFFERED_TOOLS}: ${named.join(', ')}${rest}`;
}

export function toolSchemas(tools: readonly Tool[]): ToolSchema[] {
	return tools.map(({name, description, parameters}) => ({name, description, parameters}));
}
