import {join, resolve} from 'node:path';
import {UsageError} from '../errors.js';
import {readConfigFileSync} from '../fs/read-config-file.js';
import '../zod-english.js';
import {modelConfigSchema, type ModelConfig} from './schema.js';
import {describeIssues} from './describe-issues.js';
import {reservedBodyFields} from '../providers/reserved-fields.js';
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

export function loadModelConfig(path: string, explicit: boolean): LoadedConfig {
	// Synchronous: nothing else can start before the config is known, and the reader never waits on a FIFO.
	const bytes = readConfigFileSync(path, {label: `config ${path}`, maxBytes: MAX_CONFIG_BYTES, tooBig: 'too big for a config file'});
	if (bytes === undefined) {
		throw new UsageError(explicit ? `config ${path} does not exist` : `no model config: ${path} does not exist; create it (see README, "Configuration") or pass --config FILE`);
	}

	const text = bytes.toString('utf8');
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch (error) {
		throw new UsageError(`config ${path}: not valid JSON (${(error as Error).message})`);
	}

	return checkModelConfig(json, path);
}

/** Checks a parsed config (a file's JSON, or an object a script passes the core's API); `path` names it in errors. */
export function checkModelConfig(json: unknown, path: string): LoadedConfig {
	const parsed = modelConfigSchema.safeParse(json);
	if (!parsed.success) {
		// api_key_env is optional to the schema (a provider worker needs none), but a
		// person filling in a new config wants every missing field named at once.
		const record = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
		const keyMissing = !('api_key_env' in record) && !('provider' in record) ? '; missing field "api_key_env"' : '';
		throw new UsageError(`config ${path}: ${describeIssues(parsed.error.issues, json)}${keyMissing}`);
	}
	const config = parsed.data;

	if (isProtocol(config.protocol)) {
		const reserved = reservedBodyFields[config.protocol];
		const clashes = Object.keys(config.extra_body).filter(key => reserved.includes(key));
		if (clashes.length > 0) {
			throw new UsageError(`config ${path}: field "extra_body" may not set ${clashes.map(key => `"${key}"`).join(', ')}: ` + `the ${config.protocol} adapter owns ${reserved.join(', ')}`);
		}
	}

	const tooDeep = deeperThan(config.extra_body, MAX_EXTRA_BODY_DEPTH);
	if (tooDeep !== null) {
		throw new UsageError(`config ${path}: field "extra_body" is nested more than ${MAX_EXTRA_BODY_DEPTH} levels deep (at extra_body${tooDeep}); ` + 'a request body that deep cannot be sent: flatten it');
	}

	return {path, config};
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
