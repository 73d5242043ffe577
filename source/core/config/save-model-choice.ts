import {mkdir} from 'node:fs/promises';
import {dirname} from 'node:path';
import {AUTH_DIR_MODE} from '../auth/auth-file.js';
import {UsageError, errorMessage} from '../errors.js';
import {writeFileAtomic} from '../fs/atomic-write.js';
import {readConfigFileSync} from '../fs/read-config-file.js';
import {MAX_CONFIG_BYTES} from './load-config.js';
import {jsonIndentation} from '../fs/json-indentation.js';

/** The fields a catalogue choice cannot sit beside (load-config's checkSelection refuses the mix): a save beside them is refused, never made by removing them. */
export const PROTOCOL_FIELDS = ['protocol', 'base_url', 'api_key_env'] as const;

export interface SavedChoice {
	path: string;
	/** Whether the file is new. */
	created: boolean;
}

/**
 * Saves a catalogue choice as the default: `"provider"` and `"model"` in the
 * config file, every other key kept in its place and the file's indentation
 * kept (as far as JSON.stringify can: a tab or N spaces, read from the first
 * indented line), written atomically (a temp file, fsync, rename), so a
 * failure leaves the old file whole. A file that is not a JSON object is
 * refused, never overwritten. A worker binding in `"provider"` (an object)
 * is refused too: replacing it would drop the person's worker. So is a
 * config that chooses by `protocol` (a custom endpoint): the choice could
 * only be saved by deleting its `protocol`, `base_url` or `api_key_env`.
 * A refusal leaves the file as it was, byte for byte.
 */
export async function saveModelChoice(path: string, choice: {provider: string; model: string}): Promise<SavedChoice> {
	const bytes = readConfigFileSync(path, {label: `config ${path}`, maxBytes: MAX_CONFIG_BYTES, tooBig: 'too big for a config file'});
	const text = bytes === undefined ? undefined : new TextDecoder().decode(bytes);
	let config: Record<string, unknown> = {};
	if (text !== undefined) {
		let parsed: unknown;
		try {
			parsed = JSON.parse(text);
		} catch (error) {
			throw new UsageError(`config ${path}: not valid JSON (${errorMessage(error)}), so the choice was not saved; fix the file first`);
		}

		if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`config ${path}: not a JSON object, so the choice was not saved`);
		config = parsed as Record<string, unknown>;
	}

	if (typeof config.provider === 'object' && config.provider !== null) {
		throw new UsageError(`config ${path}: "provider" binds a provider worker, which a catalogue choice would replace; the choice was not saved (edit the file to change it)`);
	}

	const protocol = PROTOCOL_FIELDS.filter(field => field in config);
	if (protocol.length > 0) {
		const fields = protocol.map(field => `"${field}"`).join(', ');
		throw new UsageError(
			`config ${path} chooses its model by protocol: saving ${choice.provider}/${choice.model} there would delete ${fields} (a catalogue provider cannot sit beside them), so it was not saved and the file is unchanged; ` +
				'to make it the default, edit the file yourself (or describe your endpoint as a provider in models.json and choose that)',
		);
	}

	const next: Record<string, unknown> = {};
	// Keys keep their order: provider and model where they were, else first.
	if (!('provider' in config)) next.provider = choice.provider;
	if (!('model' in config)) next.model = choice.model;
	for (const [key, value] of Object.entries(config)) {
		next[key] = key === 'provider' ? choice.provider : key === 'model' ? choice.model : value;
	}

	// Two spaces for a new file; a one-line file stays on one line.
	const indent = text === undefined ? 2 : jsonIndentation(text, text.trim().includes('\n') ? 2 : 0);
	const trailing = text === undefined || text.endsWith('\n') ? '\n' : '';
	// The config folder holds auth.json, which is refused in a folder others can write to.
	await mkdir(dirname(path), {recursive: true, mode: AUTH_DIR_MODE});
	await writeFileAtomic(path, `${JSON.stringify(next, null, indent)}${trailing}`);
	return {path, created: text === undefined};
}
