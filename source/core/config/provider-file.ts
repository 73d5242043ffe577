/**
 * `provider.json` (spec/platform.md §4): how the core's HTTP adapters hand images to
 * the provider. `i` has no provider worker by default, so the core reads it,
 * found like every module's config: `<config_dir>/provider.json` (the
 * `--config` of the command line is the model config, so no flag names this
 * file). Default `{"images": "base64"}`: images go inline as data URLs.
 * `"images": "files"` uploads each image once through DeepSeek's Files API
 * and refers to it by its file ID; it is a provider-side operation, so the
 * API config must also say `"provider_operations": true` (both, or neither).
 */
import {join} from 'node:path';
import * as z from 'zod/mini';
import '../zod-english.js';
import {UsageError} from '../errors.js';
import {readConfigFileSync} from '../fs/read-config-file.js';
import {describeIssues} from './describe-issues.js';
import type {PlatformDirs} from './dirs.js';
import type {LoadedConfig} from './load-config.js';
import {MAX_MODULE_CONFIG_BYTES} from './module-config.js';

/** DeepSeek: a file lives at least an hour and at most 30 days when it expires at all. */
export const MIN_EXPIRES_AFTER_SECONDS = 3600;
export const MAX_EXPIRES_AFTER_SECONDS = 2_592_000;

export const PROVIDER_FILE = 'provider.json';

/** A name for the account the files live in: files of one account are invisible to another. */
export const ACCOUNT_SCOPE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,63}$/;

/** The fields that only mean something when images go through the Files channel. */
const filesOnly = ['account_scope', 'expires_after_seconds', 'auto_refresh', 'auto_prune'] as const;

export const providerFileSchema = z
	.strictObject({
		/** base64: inline data URLs (the default); files: uploaded once, referred to by file ID (DeepSeek's Files API). */
		images: z._default(z.enum(['base64', 'files']), 'base64'),
		/**
		 * Which provider account the uploaded files belong to: a registry entry is
		 * reused only in its own scope. Default: the API config's key variable and
		 * endpoint (`DEEPSEEK_API_KEY@https://api.deepseek.com`); set it when one
		 * variable holds keys of different accounts over time.
		 */
		account_scope: z.optional(z.string().check(z.regex(ACCOUNT_SCOPE_PATTERN, 'must be 1–64 of A-Z a-z 0-9 . _ : @ -, starting with a letter or digit (a name for the account, never a key)'))),
		/** DeepSeek's file lifetime, 3600–2592000 s; without it an uploaded file stays until it is deleted. */
		expires_after_seconds: z.optional(z.int().check(z.minimum(MIN_EXPIRES_AFTER_SECONDS), z.maximum(MAX_EXPIRES_AFTER_SECONDS))),
		/** Its own authorisation: an image whose file expired is uploaded again instead of going inline. */
		auto_refresh: z._default(z.boolean(), false),
		/** Its own authorisation: entries of expired files are dropped from the local registry as it is written. */
		auto_prune: z._default(z.boolean(), false),
	})
	.check(
		z.superRefine((config, context) => {
			if (config.images === 'files') return;
			for (const field of filesOnly) {
				const value = config[field];
				// The defaults (false) say nothing; only a field the person set is a mistake.
				if (value !== undefined && value !== false) context.issues.push({code: 'custom', path: [field], message: 'applies only with "images": "files" (images are inline now)', input: value});
			}
		}),
	);

export type ProviderFileConfig = z.infer<typeof providerFileSchema>;

export interface LoadedProviderFile {
	path: string;
	found: boolean;
	config: ProviderFileConfig;
}

/** Reads `<config_dir>/provider.json`; a missing file is the default. Every error names the file and the field. */
export function loadProviderFile(dirs: PlatformDirs): LoadedProviderFile {
	const path = join(dirs.config_dir, PROVIDER_FILE);
	// Synchronous, like the model config: it is read once at start, before the first request.
	const bytes = readConfigFileSync(path, {label: `provider config ${path}`, maxBytes: MAX_MODULE_CONFIG_BYTES, tooBig: 'too big for a config file'});
	let json: unknown = {};
	if (bytes !== undefined) {
		try {
			json = JSON.parse(bytes.toString('utf8'));
		} catch (error) {
			throw new UsageError(`provider config ${path}: not valid JSON (${(error as Error).message})`);
		}
	}

	const parsed = providerFileSchema.safeParse(json);
	if (!parsed.success) throw new UsageError(`provider config ${path}: ${describeIssues(parsed.error.issues, json)}`);
	return {path, found: bytes !== undefined, config: parsed.data};
}

/** The model a run sends images to, as the Files channel's rule sees it. */
export interface FilesModel {
	/** The catalogue provider (`deepseek`), or the protocol of a config that chooses by protocol. */
	provider: string | undefined;
	/** How messages name it: `deepseek/deepseek-flash (--model)`. */
	label: string;
	/** The config file chose it (a protocol or its `provider`), not a flag or a switch this session. */
	chosenByConfig: boolean;
}

/** The model a config that chooses by protocol sends images to: DeepSeek's by `"protocol": "deepseek"`. */
export function configFilesModel(loaded: LoadedConfig): FilesModel {
	const {config} = loaded;
	const provider = typeof config.provider === 'string' ? config.provider : config.protocol;
	const field = config.protocol === undefined ? `"provider": ${JSON.stringify(provider)}` : `"protocol": ${JSON.stringify(config.protocol)}`;
	return {provider, label: `${field} in ${loaded.path}`, chosenByConfig: true};
}

/**
 * The one rule of the Files channel (spec/platform.md §4), for a model chosen by
 * protocol or by catalogue alike: the double authorisation, `provider.json`
 * asking for it and the API config allowing provider operations (either
 * alone is refused, naming the other and where to set it), and a model that
 * is DeepSeek's (`"protocol": "deepseek"`, or the catalogue's `deepseek`
 * provider). The config choosing another model with both set is refused
 * too; a flag or a switch choosing one sends its images inline, said by
 * `warn`. True when the channel is to run.
 */
export function filesChannelAuthorised(loaded: LoadedConfig, provider: LoadedProviderFile, model: FilesModel = configFilesModel(loaded), warn?: (message: string) => void): boolean {
	const asked = provider.config.images === 'files';
	const allowed = loaded.config.provider_operations;
	if (!asked && !allowed) return false;
	if (asked && !allowed) {
		throw new UsageError(
			`provider config ${provider.path}: "images": "files" uploads images to the provider, which the API config must also allow: ` +
				`set "provider_operations": true in ${loaded.path}, or set "images": "base64" in ${provider.path}`,
		);
	}

	if (!asked) {
		throw new UsageError(
			`config ${loaded.path}: "provider_operations": true allows provider-side operations, but ${provider.path} asks for none ` +
				`(${provider.found ? 'its "images" is "base64"' : 'the file does not exist, so images are inline'}); ` +
				`set "images": "files" in ${provider.path} to upload images through the Files channel, or remove "provider_operations" from ${loaded.path}`,
		);
	}

	if (model.provider === DEEPSEEK_PROVIDER) return true;
	if (!model.chosenByConfig) {
		warn?.(`images to ${model.label} go inline: the Files channel of ${provider.path} is DeepSeek's`);
		return false;
	}

	if (loaded.config.protocol !== undefined) {
		throw new UsageError(
			`provider config ${provider.path}: "images": "files" uses DeepSeek's Files API, but the API config ${loaded.path} has "protocol": ${JSON.stringify(loaded.config.protocol)}; ` +
				'use it with "protocol": "deepseek", or set "images": "base64"',
		);
	}

	throw new UsageError(
		`provider config ${provider.path}: "images": "files" uses DeepSeek's Files API, but the API config ${loaded.path} chooses ${model.label}; ` +
			'use it with "provider": "deepseek" (or "protocol": "deepseek"), or set "images": "base64"',
	);
}

/** The catalogue provider whose models are DeepSeek's, and the provider `"protocol": "deepseek"` selects. */
export const DEEPSEEK_PROVIDER = 'deepseek';

/** The account scope of the uploads: the configured one, else the key's variable name and the endpoint (never the key). */
export function accountScope(keyName: string | undefined, provider: ProviderFileConfig, baseUrl: string): string {
	if (provider.account_scope !== undefined) return provider.account_scope;
	return `${keyName ?? 'no-key'}@${new URL(baseUrl).origin}`;
}
