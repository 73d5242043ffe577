import * as z from 'zod/mini';
import '../../source/core/zod-english.js';
import {moduleConfigLoader} from '../serve/module-config-loader.js';
import {parseHookData} from '../serve/hook-data.js';
import type {WorkerDefinition} from '../serve/serve.js';
import {parseWorkerOptions} from '../serve/worker-options.js';

/** `approval.json` (spec/platform.md §4). */
const approvalConfigSchema = z.strictObject({
	/** ask: the core's proposed decision stands; auto: allow what is not denied. */
	mode: z._default(z.enum(['ask', 'auto']), 'ask'),
	/** Tools always denied, whatever the mode. */
	deny_tools: z._default(z.array(z.string().check(z.minLength(1))), []),
});

const approvalDataSchema = z.looseObject({
	name: z.string(),
	decision: z.enum(['allow', 'ask', 'deny']),
});

/**
 * `i --runtime worker approval [--config FILE]`: the `tool_approval` hook.
 * Returns the full data with `decision` set: "deny" for a tool in
 * `deny_tools`; in auto mode "allow", except that a "deny" proposed by the
 * core or an earlier hook stays a deny (auto mode skips questions, it does
 * not overrule vetoes); in ask mode the proposed decision unchanged.
 */
export function createWorker(args: string[]): WorkerDefinition {
	const options = parseWorkerOptions('approval', args);
	const config = moduleConfigLoader('approval', approvalConfigSchema, options.config);
	return {
		name: 'approval',
		hooks: {
			async tool_approval(data, context) {
				const {name, decision: proposed} = parseHookData('tool_approval', approvalDataSchema, data);
				const {mode, deny_tools: denyTools} = (await config(context)).config;
				if (denyTools.includes(name)) return {...data, decision: 'deny'};
				if (mode === 'auto' && proposed !== 'deny') return {...data, decision: 'allow'};
				return data;
			},
		},
	};
}
