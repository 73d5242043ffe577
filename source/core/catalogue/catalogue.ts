/**
 * The model catalogue (spec/extensions.md §11): which providers there are,
 * their models with context, output cap, input kinds and prices, and where
 * each provider's key comes from. Every part of it is public: shown by `i
 * --list-models`, `i extensions`, read by the cost feature and the model
 * pickers. It never holds an endpoint's headers or a key; those live in the
 * host's private execution bindings (execution-binding.ts), looked up by
 * provider id.
 */

import {editDistance} from '../nearest-name.js';

/** How a model is spoken to: `openai-completions`, `openai-responses`, `anthropic-messages` (the built-in adapters), or an extension provider's own label (`openai-completions` for the provider package). */
export type ModelApi = string;

export type InputKind = 'text' | 'image';

/** Dollars per million tokens. A price left out is unknown (never 0): the cost shown is then "unknown". */
export interface ModelCost {
	input?: number;
	output?: number;
	cacheRead?: number;
	cacheWrite?: number;
}

export interface CatalogueModel {
	/** What is sent to the server as `model`. */
	id: string;
	/** For people: `DeepSeek V3.2 (chat)`. */
	name: string;
	/** The provider's id, the same as the provider entry's. */
	provider: string;
	api: ModelApi;
	/** Tokens of context; absent when not known. */
	contextWindow?: number;
	/** The most output tokens one reply may have; absent when not known. */
	maxTokens?: number;
	input: InputKind[];
	/** Whether the model thinks (reasoning text or hidden reasoning). */
	reasoning: boolean;
	cost: ModelCost;
}

/** Who put a provider in the catalogue: `i` itself, an extension (by name), or a models.json entry (by file). */
export type CatalogueSource = {kind: 'builtin'} | {kind: 'extension'; extension: string} | {kind: 'models-file'; path: string};

export interface CatalogueProvider {
	id: string;
	/** The NAME of the environment variable that holds its key; absent for one that has none. */
	apiKeyEnv?: string;
	/** False only for an anonymous service (a local llama.cpp server), which is then sent no key. */
	requiresAuth: boolean;
	/** For display: where its requests go. The binding's endpoint is what is used. */
	baseUrl?: string;
	models: CatalogueModel[];
	source: CatalogueSource;
	/** Which files of models.json changed it, in the order they were applied. */
	overriddenBy?: string[];
}

/** A provider and one of its models, as a selection names them. */
export interface CatalogueChoice {
	provider: CatalogueProvider;
	model: CatalogueModel;
}

/** Why a reference names no model, with the nearest ids to offer. */
export class CatalogueLookupError extends Error {
	readonly nearest: string[];
	constructor(message: string, nearest: string[]) {
		super(message);
		this.name = 'CatalogueLookupError';
		this.nearest = nearest;
	}
}

/** How many near ids an unknown one is answered with. */
export const MAX_NEAREST_IDS = 3;

/**
 * The catalogue as the host has merged it (built-ins, extensions,
 * models.json). Read-only: every answer is a frozen copy, so a caller (an
 * extension, a head) that changes what it got changes nothing here.
 */
export class Catalogue {
	readonly #providers: ReadonlyMap<string, CatalogueProvider>;

	constructor(providers: Iterable<CatalogueProvider>) {
		const map = new Map<string, CatalogueProvider>();
		for (const provider of providers) if (!map.has(provider.id)) map.set(provider.id, deepFreeze(structuredClone(provider)));
		this.#providers = map;
	}

	/** Every provider, in the order they were added (built-ins first). */
	providers(): readonly CatalogueProvider[] {
		return [...this.#providers.values()];
	}

	provider(id: string): CatalogueProvider | undefined {
		return this.#providers.get(id);
	}

	model(provider: string, id: string): CatalogueModel | undefined {
		return this.#providers.get(provider)?.models.find(model => model.id === id);
	}

	/**
	 * `provider/model`, or a bare model id (the one provider that has it; with
	 * `provider` given, that provider's). Model ids may hold `/` themselves
	 * (OpenRouter's `deepseek/deepseek-chat`): when the text before the first
	 * `/` names a provider, the rest must be that provider's model (OpenRouter's
	 * is `openrouter/deepseek/deepseek-chat` then); otherwise the whole text is
	 * a model id.
	 * Throws CatalogueLookupError naming the nearest ids.
	 */
	resolve(reference: string, provider?: string): CatalogueChoice {
		if (provider !== undefined) {
			const entry = this.#providers.get(provider);
			if (!entry) throw new CatalogueLookupError(`there is no provider "${provider}" in the catalogue`, nearest(provider, [...this.#providers.keys()]));
			const slash = reference.indexOf('/');
			const own = slash > 0 && reference.slice(0, slash) === provider && !entry.models.some(model => model.id === reference) ? reference.slice(slash + 1) : reference;
			const model = entry.models.find(candidate => candidate.id === own);
			if (!model) {
				throw new CatalogueLookupError(
					`provider "${provider}" has no model "${own}"${entry.models.length === 0 ? ' (it lists none: add them in models.json)' : ''}`,
					nearest(
						own,
						entry.models.map(candidate => candidate.id),
					),
				);
			}

			return {provider: entry, model};
		}

		// `PROVIDER/MODEL` stays with PROVIDER: a model it does not list is an error naming its models, never another provider's id that looks the same.
		const slash = reference.indexOf('/');
		if (slash > 0 && this.#providers.has(reference.slice(0, slash))) return this.resolve(reference, reference.slice(0, slash));

		const matches = [...this.#providers.values()].flatMap(entry => entry.models.filter(model => model.id === reference).map(model => ({provider: entry, model})));
		if (matches.length === 1) return matches[0]!;
		if (matches.length > 1) {
			const names = matches.map(match => `${match.provider.id}/${match.model.id}`);
			throw new CatalogueLookupError(`the model "${reference}" is offered by ${matches.length} providers; name one: ${names.join(', ')}`, names.slice(0, MAX_NEAREST_IDS));
		}

		const all = [...this.#providers.values()].flatMap(entry => entry.models.map(model => `${entry.id}/${model.id}`));
		throw new CatalogueLookupError(`no provider of the catalogue has the model "${reference}"`, nearest(reference, [...all, ...all.map(id => id.slice(id.indexOf('/') + 1))]));
	}
}

/** The ids closest to `typed`, best first (edit distance, then a shared start), at most MAX_NEAREST_IDS. */
export function nearest(typed: string, ids: readonly string[]): string[] {
	const lower = typed.toLowerCase();
	const scored = [...new Set(ids)].map(id => ({id, score: editDistance(lower, id.toLowerCase()) - (id.toLowerCase().includes(lower) || lower.includes(id.toLowerCase()) ? 2 : 0)}));
	return scored
		.sort((a, b) => a.score - b.score || a.id.localeCompare(b.id))
		.slice(0, MAX_NEAREST_IDS)
		.map(entry => entry.id);
}

function deepFreeze<T>(value: T): T {
	if (value !== null && typeof value === 'object') {
		for (const item of Object.values(value)) deepFreeze(item);
		Object.freeze(value);
	}

	return value;
}
