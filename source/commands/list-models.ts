import {errorMessage, exitCodes} from '../core/errors.js';
import {loadRunCatalogue} from './run-catalogue.js';
import type {CatalogueModel, CatalogueProvider} from '../core/catalogue/catalogue.js';
import type {BuiltCatalogue} from '../core/catalogue/build-catalogue.js';
import {keepStdoutForContent, writeOut} from '../shared/output.js';
import {formatTokenCount} from '../shared/token-count.js';
import type {CliOptions} from '../cli-options.js';
import {checkedDirs} from '../core/config/checked-dirs.js';
import {AuthFile} from '../core/auth/auth-file.js';
import {resolveCredential, type CredentialSource} from '../core/auth/resolve-credential.js';
import {authSubjectOf} from '../core/catalogue/credential-for.js';

/** One row of `i --list-models --json`: public fields only, and where a key would come from (never its value). */
export interface ModelRow {
	provider: string;
	model: string;
	name: string;
	api: string;
	contextWindow: number | null;
	maxTokens: number | null;
	input: string[];
	reasoning: boolean;
	/** Dollars per million tokens; null: unknown. */
	cost: {input: number | null; output: number | null; cacheRead: number | null; cacheWrite: number | null};
	apiKeyEnv: string | null;
	/** Whether `apiKeyEnv` is set to something other than blanks; false when there is none. */
	keySet: boolean;
	/** Where a run's key would come from (auth's own resolution, local state only): `flag`, `auth.json`, `models.json` (its variable), `env`, `anonymous`; null: none would. */
	keySource: CredentialSource | null;
	/** The KEY column: that source in words (`DEEPSEEK_API_KEY`, `auth.json`, `--api-key`), or why none (`none (DEEPSEEK_API_KEY not set)`); never a value. */
	key: string;
	requiresAuth: boolean;
	baseUrl: string | null;
	/** `builtin`, `extension NAME`, `models.json PATH`. */
	source: string;
}

/**
 * `i --list-models [--json] [-C DIR] [--no-extensions] [--extension PATH]…`:
 * the catalogue a run here would have (built-ins, the extensions' and the
 * provider package's `declare({providers})`, models.json over them), with
 * no credential needed or shown. Project extensions load only in a trusted
 * workspace, as for a headless run.
 */
export async function runListModels(options: CliOptions): Promise<number> {
	// A register that prints must not corrupt the listing (--json above all).
	keepStdoutForContent();
	let rows: ModelRow[];
	try {
		rows = await listModels(options);
	} catch (error) {
		process.stderr.write(`i: --list-models: ${errorMessage(error)}\n`);
		return exitCodes.usage;
	}

	writeOut(options.json ? `${JSON.stringify(rows)}\n` : table(rows));
	return exitCodes.ok;
}

async function listModels(options: CliOptions): Promise<ModelRow[]> {
	const built = await loadRunCatalogue(options, message => process.stderr.write(`i: ${message}\n`));
	const flagFor = options.apiKey === undefined ? undefined : await flagProvider(options, built);
	const store = AuthFile.in(checkedDirs().config_dir);
	return built.catalogue.providers().flatMap(provider => {
		const key = keyOf(provider, built, {store, apiKeyFlag: provider.id === flagFor ? options.apiKey : undefined});
		return provider.models.map(model => row(provider, model, key));
	});
}

/** The provider `--api-key` would go to: the one --provider / --model names (none without them, or when they name nothing). */
async function flagProvider(options: CliOptions, built: BuiltCatalogue): Promise<string | undefined> {
	if (options.provider === undefined && options.model === undefined) return undefined;
	try {
		return (await import('../core/catalogue/select-model.js')).resolveSelection({provider: options.provider, model: options.model, origin: '--model'}, built).provider.id;
	} catch {
		return undefined;
	}
}

/** Where a run's key for `provider` would come from, by auth's own resolution (resolve-credential.ts), without contacting anyone. */
function keyOf(provider: CatalogueProvider, built: BuiltCatalogue, sources: {store: AuthFile; apiKeyFlag: string | undefined}): Pick<ModelRow, 'keySource' | 'key'> {
	const binding = built.bindings.get(provider.id);
	if (!binding) return {keySource: null, key: 'none (no binding)'};
	const subject = authSubjectOf(binding);
	const resolved = resolveCredential(subject, {apiKeyFlag: sources.apiKeyFlag, store: sources.store, env: process.env});
	if (!resolved.ok) {
		if (resolved.kind === 'config') return {keySource: null, key: `none (auth.json unusable: i auth check ${provider.id})`};
		const variable = subject.modelsJsonKeyEnv ?? subject.apiKeyEnv;
		return {keySource: null, key: variable === undefined ? `none (i auth login ${provider.id})` : `none (${variable} not set)`};
	}

	const words: Record<CredentialSource, string> = {
		flag: '--api-key',
		'auth.json': 'auth.json',
		'models.json': `${subject.modelsJsonKeyEnv} (models.json)`,
		env: subject.apiKeyEnv ?? 'variable',
		anonymous: 'none needed',
	};
	return {keySource: resolved.source, key: words[resolved.source]};
}

function row(provider: CatalogueProvider, model: CatalogueModel, key: Pick<ModelRow, 'keySource' | 'key'>): ModelRow {
	const value = provider.apiKeyEnv === undefined ? undefined : process.env[provider.apiKeyEnv];
	const {source} = provider;
	return {
		provider: provider.id,
		model: model.id,
		name: model.name,
		api: model.api,
		contextWindow: model.contextWindow ?? null,
		maxTokens: model.maxTokens ?? null,
		input: [...model.input],
		reasoning: model.reasoning,
		cost: {input: model.cost.input ?? null, output: model.cost.output ?? null, cacheRead: model.cost.cacheRead ?? null, cacheWrite: model.cost.cacheWrite ?? null},
		apiKeyEnv: provider.apiKeyEnv ?? null,
		keySet: value !== undefined && value.trim() !== '',
		...key,
		requiresAuth: provider.requiresAuth,
		baseUrl: provider.baseUrl ?? null,
		source: source.kind === 'builtin' ? 'builtin' : source.kind === 'extension' ? `extension ${source.extension}` : `models.json ${source.path}`,
	};
}

/** Columns as wide as their widest cell; token counts one way (token-count.ts); prices in dollars per million tokens, "unknown" where the catalogue has none. */
function table(rows: readonly ModelRow[]): string {
	if (rows.length === 0) return 'the catalogue is empty\n';
	const price = (value: number | null) => (value === null ? 'unknown' : `$${value}`);
	const tokens = (value: number | null) => (value === null ? '?' : formatTokenCount(value));
	const cells = [
		['PROVIDER', 'MODEL', 'NAME', 'CONTEXT', 'MAX OUT', 'INPUT', 'IN $/M', 'OUT $/M', 'CACHE READ', 'CACHE WRITE', 'KEY'],
		...rows.map(entry => [
			entry.provider,
			entry.model,
			entry.name,
			tokens(entry.contextWindow),
			tokens(entry.maxTokens),
			entry.input.join('+'),
			price(entry.cost.input),
			price(entry.cost.output),
			price(entry.cost.cacheRead),
			price(entry.cost.cacheWrite),
			entry.key,
		]),
	];
	const widths = cells[0]!.map((_, column) => Math.max(...cells.map(line => line[column]!.length)));
	return `${cells.map(line => line.map((cell, column) => (column === line.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ')).join('\n')}\n`;
}
