import * as z from 'zod/mini';
import '../zod-english.js';
import type {CatalogueModel} from '../catalogue/catalogue.js';
import {
	apiLabelSchema,
	baseUrlSchema,
	contextWindowSchema,
	costSchema,
	envNameSchema,
	inputKindsSchema,
	MAX_CATALOGUE_PROVIDERS,
	MAX_MODELS_PER_PROVIDER,
	maxTokensSchema,
	modelIdSchema,
	modelNameSchema,
	providerIdSchema,
} from '../catalogue/catalogue-fields.js';
import {describeIssues} from '../config/describe-issues.js';

/** One provider of `declare({providers})`, checked (api-providers.ts `DeclaredProvider`). */
export interface CheckedCatalogueEntry {
	id: string;
	apiKeyEnv?: string;
	requiresAuth: boolean;
	baseUrl?: string;
	models: CatalogueModel[];
}

const modelSchema = z.strictObject({
	id: modelIdSchema,
	name: modelNameSchema,
	provider: providerIdSchema,
	api: apiLabelSchema,
	contextWindow: z.optional(contextWindowSchema),
	maxTokens: z.optional(maxTokensSchema),
	input: z._default(inputKindsSchema, ['text']),
	reasoning: z._default(z.boolean(), false),
	cost: z._default(costSchema, {}),
});

const entrySchema = z.strictObject({
	id: providerIdSchema,
	models: z.array(modelSchema).check(z.maxLength(MAX_MODELS_PER_PROVIDER, `at most ${MAX_MODELS_PER_PROVIDER} models`)),
	apiKeyEnv: z.optional(envNameSchema),
	requiresAuth: z._default(z.boolean(), true),
	baseUrl: z.optional(baseUrlSchema),
});

const providersSchema = z.array(entrySchema).check(z.maxLength(MAX_CATALOGUE_PROVIDERS, `at most ${MAX_CATALOGUE_PROVIDERS} providers`));

/** Fields a catalogue must never carry (spec/extensions.md §11: a catalogue never holds a credential): named in the error, not just "unknown field". */
const secretFields = ['headers', 'apiKey', 'api_key', 'key', 'token', 'authorization'];

/**
 * `declare`'s `providers`, field by field; throws an Error naming the
 * field, the provider and the limit. A model's `provider` must be the id
 * of the entry it is listed under, and no id or model id twice.
 */
export function checkCatalogue(value: unknown): CheckedCatalogueEntry[] {
	if (Array.isArray(value)) {
		for (const [index, entry] of value.entries()) {
			const found = entry !== null && typeof entry === 'object' ? secretFields.filter(field => field in entry) : [];
			if (found.length > 0)
				throw new Error(`declare: providers[${index}] has ${found.map(field => `"${field}"`).join(', ')}: the catalogue is public and never holds headers or keys; name the key's variable in "apiKeyEnv"`);
		}
	}

	const parsed = providersSchema.safeParse(value);
	if (!parsed.success) throw new Error(`declare: providers: ${describeCatalogueIssues(parsed.error.issues, value)}`);
	const ids = new Set<string>();
	for (const entry of parsed.data) {
		if (ids.has(entry.id)) throw new Error(`declare: providers lists "${entry.id}" twice`);
		ids.add(entry.id);
		const models = new Set<string>();
		for (const model of entry.models) {
			if (model.provider !== entry.id) throw new Error(`declare: provider "${entry.id}": model "${model.id}" says its provider is "${model.provider}"; a model's provider is the id it is listed under`);
			if (models.has(model.id)) throw new Error(`declare: provider "${entry.id}" lists the model "${model.id}" twice`);
			models.add(model.id);
		}
	}

	return parsed.data.map(entry => ({
		id: entry.id,
		requiresAuth: entry.requiresAuth,
		...(entry.apiKeyEnv === undefined ? {} : {apiKeyEnv: entry.apiKeyEnv}),
		...(entry.baseUrl === undefined ? {} : {baseUrl: entry.baseUrl}),
		models: entry.models.map(model => ({...model, input: [...new Set(model.input)]})) as CatalogueModel[],
	}));
}

/**
 * Each issue named by the provider and the model it is in (`provider "x",
 * model "y": field "cost.input": …`) rather than by list indexes, which
 * nobody reading an extension's source counts.
 */
function describeCatalogueIssues(issues: readonly z.core.$ZodIssue[], value: unknown): string {
	return issues
		.slice(0, 5)
		.map(issue => {
			const [entryIndex, list, modelIndex] = issue.path;
			const entry = Array.isArray(value) && typeof entryIndex === 'number' ? (value[entryIndex] as unknown) : undefined;
			if (entry === undefined) return describeIssues([issue], value);
			const provider = `provider ${idOf(entry, `#${Number(entryIndex) + 1}`)}`;
			const models = (entry as {models?: unknown} | null)?.models;
			if (list !== 'models' || typeof modelIndex !== 'number' || !Array.isArray(models) || models[modelIndex] === undefined) {
				return `${provider}: ${describeIssues([{...issue, path: issue.path.slice(1)}], entry)}`;
			}

			const model = models[modelIndex] as unknown;
			return `${provider}, model ${idOf(model, `#${modelIndex + 1}`)}: ${describeIssues([{...issue, path: issue.path.slice(3)}], model)}`;
		})
		.join('; ');
}

/** An entry's or a model's `id` quoted, or its place in its list when it has none. */
function idOf(value: unknown, place: string): string {
	const id = value !== null && typeof value === 'object' ? (value as {id?: unknown}).id : undefined;
	return typeof id === 'string' ? JSON.stringify(id.slice(0, 100)) : place;
}
