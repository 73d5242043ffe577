/**
 * What one provider of this package is: its catalogue entry, where that
 * entry was read and when, and the wire the host's own client speaks to it
 * (`io.completions`, docs/extensions/authoring.md): this package has no
 * HTTP client, SSE reader or stream assembler of its own.
 */
import type {CompletionsWire, DeclaredModel} from 'i-agent/extension';

/** Where a module's catalogue comes from: a page of the provider's and the day it was read (YYYY-MM-DD). */
export interface CatalogueSource {
	url: string;
	read: string;
	/** What the catalogue could not hold or what could not be re-read, in one sentence. */
	note?: string;
}

/** A model name the module still takes and sends as another, with the body fields that make it the same model (DeepSeek's retired names). */
export interface ModelAlias {
	model: string;
	extra: Record<string, unknown>;
}

export interface ProviderModule {
	id: string;
	/** Its default endpoint; undefined for one that has none (proxy: models.json gives it). */
	baseUrl: string | undefined;
	apiKeyEnv: string | undefined;
	requiresAuth: boolean;
	models: DeclaredModel[];
	source: CatalogueSource;
	/** How the host's adapter speaks to it: the protocol and the quirks of its OpenAI-compatible server. */
	wire: CompletionsWire;
	/** Catalogue ids that are another model's old name, by id. */
	aliases?: Readonly<Record<string, ModelAlias>>;
}

/** A model of `provider` in the catalogue's shape; `api` is this package's wire for all of them. */
export function model(provider: string, fields: Omit<DeclaredModel, 'provider' | 'api'>): DeclaredModel {
	return {provider, api: 'openai-completions', ...fields};
}
