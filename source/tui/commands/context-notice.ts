import {lastUsageAnchor} from '../../core/agent/request-model.js';
import type {Agent} from '../../core/session/agent.js';
import {formatFoundFolders} from './context-folders.js';
import {contextReport, formatContextReport, type ContextReport} from './context-report.js';

/**
 * /context: what the next request holds, as a notice (never sent to the
 * model). The shares are of the window the budget plugin works with (the
 * config's `budget.window`); without one, of the model's context window
 * from the catalogue; the notice says which. The skill and prompt folders
 * found follow, then what the hooks' workers warned of (a skill shadowed by
 * an earlier one of its name is named there).
 */
export async function contextNotice(agent: Agent): Promise<string> {
	const report = contextReport({
		messages: agent.session.messages,
		systemPrompt: agent.systemPrompt,
		tools: agent.tools,
		instructions: agent.instructions,
		window: await contextWindow(agent),
		imageTokens: agent.budget?.image_tokens ?? null,
		anchor: lastUsageAnchor(agent.session),
		model: agent.caller.model,
	});
	const folders = await formatFoundFolders(agent.resourceFolders);
	const warnings = agent.hooks.warnings();
	const told = warnings.length === 0 ? [] : ['What the modules warned of in this run (a skill left out or not used), the latest last:', ...warnings.map(warning => `  ${warning}`)];
	return [formatContextReport(report), folders, ...told].filter(part => part !== '').join('\n');
}

async function contextWindow(agent: Agent): Promise<ContextReport['window']> {
	if (agent.budget) return {tokens: agent.budget.window, source: 'the budget window (the config\'s "budget.window")'};
	const catalogue = await agent.loadCatalogue();
	const model = agent.selected
		? catalogue.model(agent.selected.provider, agent.selected.model)
		: catalogue
				.providers()
				.flatMap(provider => provider.models)
				.find(candidate => candidate.id === agent.caller.model);
	if (model?.contextWindow === undefined) return null;
	return {tokens: model.contextWindow, source: `the context window of ${model.provider}/${model.id} in the model catalogue (no budget is configured)`};
}
