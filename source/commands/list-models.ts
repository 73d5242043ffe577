import {errorMessage, exitCodes} from '../core/errors.js';
import {loadRunCatalogue} from './run-catalogue.js';
import type {CatalogueModel, CatalogueProvider} from '../core/catalogue/catalogue.js';
import {keepStdoutForContent, writeOut} from '../shared/output.js';
import type {CliOptions} from '../cli-options.js';

/** One row of `i --list-models --json`: public fields only, and whether the key's variable is set (never its value). */
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
	return built.catalogue.providers().flatMap(provider => provider.models.map(model => row(provider, model)));
}

function row(provider: CatalogueProvider, model: CatalogueModel): ModelRow {
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
		requiresAuth: provider.requiresAuth,
		baseUrl: provider.baseUrl ?? null,
		source: source.kind === 'builtin' ? 'builtin' : source.kind === 'extension' ? `extension ${source.extension}` : `models.json ${source.path}`,
	};
}

/** Columns as wide as their widest cell; prices in dollars per million tokens, "unknown" where the catalogue has none. */
function table(rows: readonly ModelRow[]): string {
	if (rows.length === 0) return 'the catalogue is empty\n';
	const price = (value: number | null) => (value === null ? 'unknown' : `$${value}`);
	const tokens = (value: number | null) => (value === null ? '?' : value >= 1000 && value % 1000 === 0 ? `${value / 1000}k` : String(value));
	const key = (entry: ModelRow) =>
		entry.apiKeyEnv === null ? (entry.requiresAuth ? 'no key variable' : 'anonymous') : `${entry.apiKeyEnv} ${entry.keySet ? 'set' : 'not set'}${entry.requiresAuth ? '' : ' (optional)'}`;
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
			key(entry),
		]),
	];
	const widths = cells[0]!.map((_, column) => Math.max(...cells.map(line => line[column]!.length)));
	return `${cells.map(line => line.map((cell, column) => (column === line.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ')).join('\n')}\n`;
}
