import {UsageError} from '../errors.js';
import {readConfigFileSync} from '../fs/read-config-file.js';

/** Manifests, selections and bindings are small hand-written files; anything bigger is a mistake. */
export const MAX_PLUGIN_FILE_BYTES = 1024 * 1024;

/**
 * Reads and parses a JSON file of at most 1 MiB, or returns undefined when it
 * does not exist (each caller knows whether that is fine). `label` names the
 * file in errors: `manifest /x/tools.json`. Read synchronously inside (never
 * waiting on a FIFO: read-config-file.ts): these files are read before the
 * workers start, and three trips through the thread pool per file cost more
 * than the reading.
 */
export async function readJsonFile(path: string, label: string): Promise<unknown> {
	const bytes = readConfigFileSync(path, {label, maxBytes: MAX_PLUGIN_FILE_BYTES, tooBig: 'too big for a plugin file (at most 1 MiB)'});
	if (bytes === undefined) return undefined;
	try {
		return JSON.parse(bytes.toString('utf8')) as unknown;
	} catch (error) {
		throw new UsageError(`${label}: not valid JSON (${(error as Error).message})`);
	}
}
