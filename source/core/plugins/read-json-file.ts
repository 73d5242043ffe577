import {open} from 'node:fs/promises';
import {UsageError} from '../errors.js';

/** Manifests, selections and bindings are small hand-written files; anything bigger is a mistake. */
export const MAX_PLUGIN_FILE_BYTES = 1024 * 1024;

/**
 * Reads and parses a JSON file of at most 1 MiB, or returns undefined when it
 * does not exist (each caller knows whether that is fine). `label` names the
 * file in errors: `manifest /x/tools.json`.
 */
export async function readJsonFile(path: string, label: string): Promise<unknown> {
	let text: string;
	try {
		const handle = await open(path, 'r');
		try {
			// One byte past the cap is enough to tell an oversized file, without reading it whole.
			const buffer = Buffer.alloc(MAX_PLUGIN_FILE_BYTES + 1);
			let filled = 0;
			for (;;) {
				const {bytesRead} = await handle.read(buffer, filled, buffer.length - filled, filled);
				if (bytesRead === 0) break;
				filled += bytesRead;
				if (filled > MAX_PLUGIN_FILE_BYTES) throw new UsageError(`${label}: the file is over ${MAX_PLUGIN_FILE_BYTES} bytes (1 MiB), too big for a plugin file`);
			}

			text = buffer.toString('utf8', 0, filled);
		} finally {
			await handle.close();
		}
	} catch (error) {
		if (error instanceof UsageError) throw error;
		const code = (error as NodeJS.ErrnoException).code;
		if (code === 'ENOENT') return undefined;
		throw new UsageError(`${label}: cannot read it (${code === 'EISDIR' ? 'it is a folder' : (code ?? String(error))})`);
	}

	try {
		return JSON.parse(text) as unknown;
	} catch (error) {
		throw new UsageError(`${label}: not valid JSON (${(error as Error).message})`);
	}
}
