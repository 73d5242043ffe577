import {join, relative} from 'node:path';
import * as z from 'zod/mini';
import '../zod-english.js';
import {UsageError} from '../errors.js';
import {describeIssues} from '../config/describe-issues.js';
import {readConfigFile} from '../fs/read-config-file.js';
import {MAX_CONFIG_BYTES} from '../config/load-config.js';
import {
	baseUrlSchema,
	contextWindowSchema,
	costSchema,
	envNameSchema,
	inputKindsSchema,
	MAX_CATALOGUE_PROVIDERS,
	MAX_HEADER_VALUE_LENGTH,
	MAX_HEADERS,
	MAX_MODELS_PER_PROVIDER,
	maxTokensSchema,
	modelIdSchema,
	modelNameSchema,
	providerIdSchema,
} from './catalogue-fields.js';

/**
 * `models.json` (pi's shape, issue 16): endpoints, headers, key variables
 * and models for protocols `i` already speaks, without code.
 * `<config_dir>/models.json`, then the project's `.i/models.json` over it.
 * It is data, not code: it loads without the workspace's trust. Every field
 * is checked; an error names the file, the provider and the field.
 */

/** The wires a models.json provider may name: the built-in adapters'. */
export const modelsFileApis = ['openai-completions', 'openai-responses', 'anthropic-messages'] as const;
export type ModelsFileApi = (typeof modelsFileApis)[number];

const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;

const modelSchema = z.strictObject({
	id: modelIdSchema,
	name: z.optional(modelNameSchema),
	api: z.optional(z.enum(modelsFileApis)),
	contextWindow: z.optional(contextWindowSchema),
	maxTokens: z.optional(maxTokensSchema),
	input: z.optional(inputKindsSchema),
	reasoning: z.optional(z.boolean()),
	cost: z.optional(costSchema),
});

const providerSchema = z.strictObject({
	baseUrl: z.optional(baseUrlSchema),
	api: z.optional(z.enum(modelsFileApis)),
	/** The NAME of the variable that holds the key (pi's `apiKey`), never the key. */
	apiKey: z.optional(envNameSchema),
	headers: z.optional(
		z
			.record(
				z.string().check(z.regex(headerName, 'must be an HTTP header name')),
				z.string().check(z.maxLength(MAX_HEADER_VALUE_LENGTH, `at most ${MAX_HEADER_VALUE_LENGTH} characters`), z.regex(/^[^\r\n\0]*$/, 'must be one line')),
			)
			.check(z.refine(headers => Object.keys(headers).length <= MAX_HEADERS, `at most ${MAX_HEADERS} headers`)),
	),
	models: z.optional(z.array(modelSchema).check(z.maxLength(MAX_MODELS_PER_PROVIDER, `at most ${MAX_MODELS_PER_PROVIDER} models`))),
});

const fileSchema = z.strictObject({
	providers: z.record(providerIdSchema, providerSchema).check(z.refine(providers => Object.keys(providers).length <= MAX_CATALOGUE_PROVIDERS, `at most ${MAX_CATALOGUE_PROVIDERS} providers`)),
});

export type ModelsFileProvider = z.infer<typeof providerSchema>;
export type ModelsFileModel = z.infer<typeof modelSchema>;

/** One models.json, checked. */
export interface ModelsFile {
	path: string;
	/** The project's `.i/models.json`, not the person's own. */
	project: boolean;
	providers: ReadonlyMap<string, ModelsFileProvider>;
}

/** The two files, global first; each only when it exists. */
export function modelsFilePaths(configDir: string, workspace: string): Array<{path: string; project: boolean}> {
	return [
		{path: join(configDir, 'models.json'), project: false},
		{path: join(workspace, '.i', 'models.json'), project: true},
	];
}

/** Reads and checks one models.json; undefined when it does not exist. A bad one is a UsageError naming the file, the provider and the field. */
export async function readModelsFile(path: string, project: boolean): Promise<ModelsFile | undefined> {
	const label = `models ${path}`;
	const bytes = await readConfigFile(path, {label, maxBytes: MAX_CONFIG_BYTES, tooBig: 'too big for a models file (at most 1 MiB)'});
	if (bytes === undefined) return undefined;
	let json: unknown;
	try {
		json = JSON.parse(bytes.toString('utf8'));
	} catch (error) {
		throw new UsageError(`${label}: not valid JSON (${(error as Error).message})`);
	}

	return checkModelsFile(json, path, project);
}

export function checkModelsFile(json: unknown, path: string, project: boolean): ModelsFile {
	const label = `models ${path}`;
	const parsed = fileSchema.safeParse(json);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		// `providers.<id>.models.2.cost.input` reads better as the provider and its field.
		const provider = issue?.path[0] === 'providers' && issue.path.length > 1 ? ` provider "${String(issue.path[1])}":` : '';
		throw new UsageError(`${label}:${provider} ${describeIssues(parsed.error.issues, json)}`);
	}

	for (const [id, provider] of Object.entries(parsed.data.providers)) {
		const seen = new Set<string>();
		for (const model of provider.models ?? []) {
			if (seen.has(model.id)) throw new UsageError(`${label}: provider "${id}": field "models" lists the model "${model.id}" twice`);
			seen.add(model.id);
		}
	}

	return {path, project, providers: new Map(Object.entries(parsed.data.providers))};
}

/**
 * What a project's models.json points elsewhere: each provider entry that
 * sets an endpoint, headers or a key variable, as the trust question lists
 * it (`provider ID: baseUrl URL (.i/models.json)`). Such an entry could send
 * the person's key for that provider to the project's address, so it counts
 * only in a trusted workspace; entries that only add models or prices count
 * always.
 */
export function projectEndpoints(file: ModelsFile, workspace: string): string[] {
	if (!file.project) return [];
	const where = relative(workspace, file.path);
	return [...file.providers].flatMap(([id, entry]) => {
		if (!redirects(entry)) return [];
		const what = [entry.baseUrl === undefined ? '' : `baseUrl ${entry.baseUrl}`, entry.headers === undefined ? '' : 'headers', entry.apiKey === undefined ? '' : `key variable ${entry.apiKey}`]
			.filter(Boolean)
			.join(', ');
		return [`provider ${id}: ${what} (${where})`];
	});
}

/** The file without the entries that point elsewhere (projectEndpoints): what counts in a workspace that is not trusted. */
export function withoutEndpoints(file: ModelsFile): ModelsFile {
	return {...file, providers: new Map([...file.providers].filter(([, entry]) => !redirects(entry)))};
}

function redirects(entry: ModelsFileProvider): boolean {
	return entry.baseUrl !== undefined || entry.headers !== undefined || entry.apiKey !== undefined;
}

/** Both files of a run, global then project (the project's applied over the global's). */
export async function readModelsFiles(configDir: string, workspace: string): Promise<ModelsFile[]> {
	const files = await Promise.all(modelsFilePaths(configDir, workspace).map(async ({path, project}) => readModelsFile(path, project)));
	return files.filter((file): file is ModelsFile => file !== undefined);
}
