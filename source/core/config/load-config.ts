import {dirname, join, resolve} from 'node:path';
import {UsageError} from '../errors.js';
import {readConfigFileSync} from '../fs/read-config-file.js';
import '../zod-english.js';
import {modelConfigSchema, type ModelConfig} from './schema.js';
import {describeIssues} from './describe-issues.js';
import {checkExtraBody} from './reserved-fields.js';
import {isProtocol} from '../providers/types.js';

/** A config is a small hand-written file; anything bigger is a mistake. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

export interface LoadedConfig {
	path: string;
	config: ModelConfig;
}

/** `--config FILE`, else `<config_dir>/config.json`. */
export function configPath(explicit: string | undefined, configDir: string): string {
	return explicit ? resolve(explicit) : join(configDir, 'config.json');
}

/** No model configured: the default config file does not exist. A headless head says the exact commands instead (first-run-commands.ts). */
export class NoModelConfigError extends UsageError {
	constructor(readonly path: string) {
		super(`no model config: ${path} does not exist; create it (docs/configuration.md) or pass --config FILE`);
	}
}

/** The name errors give a run without a config file, whose model --provider / --model chose. */
export const NO_CONFIG_NAME = '(no config.json: --provider / --model chose the model)';

export function loadModelConfig(path: string, explicit: boolean, options: {selectedByFlags?: boolean} = {}): LoadedConfig {
	// Synchronous: nothing else can start before the config is known, and the reader never waits on a FIFO.
	const bytes = readConfigFileSync(path, {label: `config ${path}`, maxBytes: MAX_CONFIG_BYTES, tooBig: 'too big for a config file'});
	if (bytes === undefined) {
		// Nothing else to say than the model: the flags said it.
		if (!explicit && options.selectedByFlags) return checkModelConfig({}, join(dirname(path), NO_CONFIG_NAME), options);
		if (explicit) throw new UsageError(`config ${path} does not exist`);
		throw new NoModelConfigError(path);
	}

	const text = bytes.toString('utf8');
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch (error) {
		throw new UsageError(`config ${path}: not valid JSON (${(error as Error).message})`);
	}

	return checkModelConfig(json, path, options);
}

/** Checks a parsed config (a file's JSON, or an object a script passes the core's API); `path` names it in errors. */
export function checkModelConfig(json: unknown, path: string, options: {selectedByFlags?: boolean} = {}): LoadedConfig {
	const parsed = modelConfigSchema.safeParse(json);
	if (!parsed.success) {
		// api_key_env is optional to the schema (a provider worker needs none), but a
		// person filling in a new config wants every missing field named at once.
		const record = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
		const keyMissing = !('api_key_env' in record) && !('provider' in record) && 'protocol' in record ? '; missing field "api_key_env"' : '';
		throw new UsageError(`config ${path}: ${describeIssues(parsed.error.issues, json)}${keyMissing}`);
	}
	const config = parsed.data;
	// --provider / --model choose the model: the config then only adds the rest (plugins, budget…).
	if (!options.selectedByFlags) checkSelection(config, path);
	else if (typeof config.provider === 'string') checkSelection(config, path);

	if (config.protocol !== undefined && isProtocol(config.protocol)) checkExtraBody(config.protocol, config.extra_body, `config ${path}`);

	const tooDeep = deeperThan(config.extra_body, MAX_EXTRA_BODY_DEPTH);
	if (tooDeep !== null) {
		throw new UsageError(`config ${path}: field "extra_body" is nested more than ${MAX_EXTRA_BODY_DEPTH} levels deep (at extra_body${tooDeep}); ` + 'a request body that deep cannot be sent: flatten it');
	}

	return {path, config};
}

/**
 * A config selects its model one of two ways (docs/providers.md):
 * `protocol` + `model` (+ `base_url`, `api_key_env`), the built-in wire or a
 * provider worker's, as before; or `provider` naming a catalogue provider
 * (+ `model`), whose wire, endpoint and key variable the catalogue gives.
 * Mixing them would leave two answers to "where does the key go": refused.
 */
function checkSelection(config: ModelConfig, path: string): void {
	if (typeof config.provider === 'string') {
		const mixed = (['protocol', 'base_url', 'api_key_env'] as const).filter(field => config[field] !== undefined);
		if (mixed.length > 0) {
			throw new UsageError(
				`config ${path}: "provider": ${JSON.stringify(config.provider)} selects a catalogue provider, which supplies the wire, the endpoint and the key's variable, so ${mixed.map(field => `"${field}"`).join(', ')} cannot be set beside it; ` +
					'remove them (change an endpoint or key variable in models.json), or drop "provider" to select by "protocol" as before',
			);
		}

		return;
	}

	if (config.protocol === undefined) {
		throw new UsageError(
			`config ${path}: missing field "protocol" (a built-in wire: openai, deepseek, anthropic, responses) or "provider" (a catalogue provider such as "deepseek"; i --list-models lists them)` +
				// A person filling in a new config wants every missing field named at once.
				[...(config.model === undefined ? ['model'] : []), ...(config.api_key_env === undefined && config.provider === undefined ? ['api_key_env'] : [])].map(field => `; missing field "${field}"`).join(''),
		);
	}

	if (config.model === undefined) throw new UsageError(`config ${path}: missing field "model"${config.api_key_env === undefined && config.provider === undefined ? '; missing field "api_key_env"' : ''}`);
}

/** How deep `extra_body` may nest: it goes into every request body, which must serialise and which providers parse. */
export const MAX_EXTRA_BODY_DEPTH = 64;

/**
 * The path (`.a.b[0]…`) to a value nested more than `limit` containers deep,
 * or null. Iterative: a recursive walk would overflow the stack on exactly
 * the input it must refuse.
 */
function deeperThan(value: unknown, limit: number): string | null {
	const stack: Array<{value: unknown; depth: number; path: string}> = [{value, depth: 1, path: ''}];
	while (stack.length > 0) {
		const {value: current, depth, path} = stack.pop()!;
		if (current === null || typeof current !== 'object') continue;
		if (depth > limit) return path.length > 80 ? `${path.slice(0, 80)}…` : path;
		const entries = Array.isArray(current) ? current.map((item, index) => [`[${index}]`, item] as const) : Object.entries(current).map(([key, item]) => [`.${key}`, item] as const);
		for (const [step, item] of entries) stack.push({value: item, depth: depth + 1, path: path + step});
	}

	return null;
}

export {isProtocol} from '../providers/types.js';
