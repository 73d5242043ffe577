import {UsageError, errorMessage} from '../errors.js';
import {writeFileAtomic} from '../fs/atomic-write.js';
import {readConfigFileSync} from '../fs/read-config-file.js';
import {MAX_CONFIG_BYTES} from '../config/load-config.js';

/**
 * Removes the person's `providers.<id>` entry from a models.json
 * (`/provider remove ID`), every other entry and key kept, written
 * atomically; false when the file has no such entry. A file that is not a
 * JSON object with a `providers` object is refused, never overwritten.
 */
export async function removeModelsEntry(path: string, id: string): Promise<boolean> {
	const bytes = readConfigFileSync(path, {label: `models ${path}`, maxBytes: MAX_CONFIG_BYTES, tooBig: 'too big for a models file'});
	if (bytes === undefined) return false;
	const text = new TextDecoder().decode(bytes);
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		throw new UsageError(`models ${path}: not valid JSON (${errorMessage(error)}); nothing was removed`);
	}

	const providers = typeof parsed === 'object' && parsed !== null ? (parsed as {providers?: unknown}).providers : undefined;
	if (typeof providers !== 'object' || providers === null || Array.isArray(providers)) throw new UsageError(`models ${path}: no "providers" object; nothing was removed`);
	if (!Object.hasOwn(providers, id)) return false;
	delete (providers as Record<string, unknown>)[id];
	const indent = /\n(\t|[ ]+)\S/.exec(text)?.[1] ?? '  ';
	await writeFileAtomic(path, `${JSON.stringify(parsed, null, indent)}${text.endsWith('\n') ? '\n' : ''}`);
	return true;
}
