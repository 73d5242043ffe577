import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {GeneratedManifest} from './generate-manifest.js';

/**
 * The official modules' tools that cannot work in this configuration, left
 * out of the manifest so the model is never offered a tool that can only
 * fail: `web_search` without a `search` endpoint in `<config_dir>/web.json`.
 * A module bound to a worker of its own (bindings.json) keeps every tool:
 * that worker may search some other way. A web.json that cannot be read as
 * JSON keeps the tool, so its call names the broken file.
 */
export async function withoutUnusableTools(manifest: GeneratedManifest, configDir: string, bound: (module: string) => boolean): Promise<GeneratedManifest> {
	const isOfficialSearch = (tool: GeneratedManifest['tools'][number]) => tool.name === 'web_search' && tool.module === 'web' && !bound('web');
	if (!manifest.tools.some(isOfficialSearch) || (await searchConfigured(configDir))) return manifest;
	return {...manifest, tools: manifest.tools.filter(tool => !isOfficialSearch(tool))};
}

async function searchConfigured(configDir: string): Promise<boolean> {
	let text: string;
	try {
		text = await readFile(join(configDir, 'web.json'), 'utf8');
	} catch {
		return false;
	}

	try {
		const config = JSON.parse(text) as unknown;
		return typeof config !== 'object' || config === null || 'search' in config;
	} catch {
		return true;
	}
}
