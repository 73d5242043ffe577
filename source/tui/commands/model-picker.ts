import type {Agent} from '../../core/session/agent.js';
import type {ProviderChoice} from '../../core/catalogue/provider-choices.js';
import type {ChoiceOption, ChooserBroker} from '../brokers/chooser-broker.js';
import {formatTokenCount} from '../../shared/token-count.js';

/** What a switch asks for: a provider (its first model), a model (bare within a provider, or PROVIDER/MODEL), and how errors name it. */
export type ModelTarget = Parameters<Agent['switchModel']>[0];

/** The marked options' meaning, under each list. */
const LEGEND = '● key ready';

/** What Enter does in these lists, and the separate step that makes the choice the default. */
const enter = (command: string) => `switch this session (then ${command} --default saves it)`;

function providerOption(choice: ProviderChoice): ChoiceOption {
	const models = `${choice.models.length} model${choice.models.length === 1 ? '' : 's'}`;
	return {value: choice.id, label: choice.id, description: `${models} · ${choice.ready ? choice.auth : 'no key: i auth login or export its variable'}`, marked: choice.ready};
}

/** `/provider`: the catalogue's providers, those whose key resolves first and marked, the current one shown so; null when cancelled. */
export async function chooseProvider(agent: Pick<Agent, 'providerChoices' | 'selected'>, chooser: Pick<ChooserBroker, 'ask'>): Promise<string | null> {
	const choices = await agent.providerChoices();
	const current = agent.selected?.provider;
	return chooser.ask({title: `Provider${current === undefined ? '' : ` (now ${current})`}`, options: choices.map(providerOption), legend: LEGEND, current, enter: enter('/provider')});
}

function price(value: number | undefined): string {
	return value === undefined ? '?' : `$${value}`;
}

/** A model as a chooser line: its name, context window and prices per million tokens (`?`: unknown). */
export function modelOption(value: string, model: ProviderChoice['models'][number], ready: boolean): ChoiceOption {
	const window = model.contextWindow === undefined ? '' : ` · ${formatTokenCount(model.contextWindow)} context`;
	return {value, label: value, description: `${model.name}${window} · in ${price(model.cost.input)} out ${price(model.cost.output)} /M`, marked: ready};
}

/**
 * `/model`: the current provider's models; with no catalogue provider in use
 * (a config that chooses by protocol), every model as `provider/model`,
 * those whose provider's key resolves first. The current model is shown so.
 * Null when cancelled.
 */
export async function chooseModel(agent: Pick<Agent, 'providerChoices' | 'selected' | 'caller'>, chooser: Pick<ChooserBroker, 'ask'>): Promise<ModelTarget | null> {
	const choices = await agent.providerChoices();
	const current = agent.selected;
	const own = current === null ? undefined : choices.find(choice => choice.id === current.provider);
	const options = own ? own.models.map(model => modelOption(model.id, model, own.ready)) : choices.flatMap(choice => choice.models.map(model => modelOption(`${choice.id}/${model.id}`, model, choice.ready)));
	// Without a provider of its own, the list names models as provider/model, and a protocol config's model is none of them.
	const now = own ? current!.model : current === null ? undefined : `${current.provider}/${current.model}`;
	const title = own ? `Model of ${own.id} (now ${now})` : `Model (provider/model; now ${now ?? `${agent.caller.model}, by the config's protocol`})`;
	const value = await chooser.ask({title, options, legend: LEGEND, current: now, enter: enter('/model')});
	if (value === null) return null;
	return {provider: own?.id, model: value, origin: `/model ${value}`};
}
