import {mkdir} from 'node:fs/promises';
import {dirname} from 'node:path';
import {UsageError, errorMessage} from '../errors.js';
import {writeFileAtomic} from '../fs/atomic-write.js';
import {readConfigFileSync} from '../fs/read-config-file.js';
import {MAX_CONFIG_BYTES} from './load-config.js';
import {jsonIndentation} from '../fs/json-indentation.js';

/** The fields a catalogue choice cannot sit beside (load-config's checkSelection refuses the mix): a switch removes them. */
export const PROTOCOL_FIELDS = ['protocol', 'base_url', 'api_key_env'] as const;

export interface SavedChoice {
	path: string;
	/** The protocol fields the switch removed (the catalogue gives the wire, the endpoint and the key's variable now). */
	removed: string[];
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
 * is refused too: replacing it would drop the person's worker.
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

	const removed = PROTOCOL_FIELDS.filter(field => field in config);
	const next: Record<string, unknown> = {};
	// Keys keep their order: provider and model where they were, else first.
	if (!('provider' in config)) next.provider = choice.provider;
	if (!('model' in config)) next.model = choice.model;
	for (const [key, value] of Object.entries(config)) {
		if ((PROTOCOL_FIELDS as readonly string[]).includes(key)) continue;
		next[key] = key === 'provider' ? choice.provider : key === 'model' ? choice.model : value;
	}

	// Two spaces for a new file; a one-line file stays on one line.
	const indent = text === undefined ? 2 : jsonIndentation(text, text.trim().includes('\n') ? 2 : 0);
	const trailing = text === undefined || text.endsWith('\n') ? '\n' : '';
	await mkdir(dirname(path), {recursive: true});
	await writeFileAtomic(path, `${JSON.stringify(next, null, indent)}${trailing}`);
	return {path, removed, created: text === undefined};
}
