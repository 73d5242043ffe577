import * as z from 'zod/mini';
import '../../source/core/zod-english.js';
import {BudgetEstimator} from './budget-estimate.js';
import {budgetSchema, planLimits, toolShare} from './budget-plan.js';
import {parseHookData} from '../serve/hook-data.js';
import type {WorkerDefinition} from '../serve/serve.js';
import {UsageError} from '../../source/core/errors.js';

const count = z.int().check(z.nonnegative());

const dataSchema = z.looseObject({
	model: z.string(),
	budget: z.nullable(budgetSchema),
	max_tokens: z.optional(z.nullable(count)),
	history: z.array(z.unknown()),
	tools: z.array(z.unknown()),
	pending: count,
	last_usage: z.optional(
		z.nullable(
			z.object({
				model: z.string(),
				input: z.number(),
				output: z.number(),
				request_messages: z.number(),
			}),
		),
	),
});

/**
 * `i --runtime worker budget`: the `context_budget` hook (spec/platform.md §7). Its
 * config is the API config's `budget`, which the core sends with each
 * request; without one it measures nothing and says nothing. It answers the
 * full data with `fits`, `estimate` and `limit` (tokens), `window`,
 * `method` (how the estimate was made) and, when tool calls are pending,
 * `tool_budget` (what each result may take). Resident state: the last
 * history measured and the fingerprints of recent requests, for anchoring.
 */
export function createWorker(args: string[]): WorkerDefinition {
	if (args.length > 0) {
		const what = args.includes('--config') || args.some(arg => arg.startsWith('--config=')) ? '--config: it reads no file of its own' : `options (got ${args.join(' ')})`;
		throw new UsageError(`worker budget takes no ${what}; its budget is the model config's "budget" field, which the core sends with each context_budget request`);
	}

	const estimator = new BudgetEstimator();
	return {
		name: 'budget',
		hooks: {
			async context_budget(data) {
				const input = parseHookData('context_budget', dataSchema, data);
				const {budget, pending} = input;
				if (budget === null) return data;
				const limits = planLimits(budget, input.max_tokens ?? null);
				const estimate = estimator.estimate({
					history: input.history,
					tools: input.tools,
					model: input.model,
					anchor: input.last_usage ?? null,
					limits,
					request: pending === 0,
				});
				const answer: Record<string, unknown> = {
					...data,
					fits: estimate.tokens <= limits.trigger,
					estimate: estimate.tokens,
					limit: limits.trigger,
					window: limits.window,
					method: estimate.method,
				};
				if (estimate.note) answer.note = estimate.note;
				if (pending > 0) {
					const perCall = toolShare(limits, estimate.tokens, pending);
					answer.tool_budget = {per_call_tokens: perCall, per_call_chars: perCall};
				}

				return answer;
			},
		},
	};
}
