import {UsageError, errorMessage} from '../errors.js';
import {writeFileAtomic} from '../fs/atomic-write.js';
import {readConfigFileSync} from '../fs/read-config-file.js';
import {MAX_CONFIG_BYTES} from '../config/load-config.js';
import {nearestName} from '../nearest-name.js';
import type {Catalogue, CatalogueSource} from './catalogue.js';
import {jsonIndentation} from '../fs/json-indentation.js';

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
	await writeFileAtomic(path, `${JSON.stringify(parsed, null, jsonIndentation(text, 2))}${text.endsWith('\n') ? '\n' : ''}`);
	return true;
}

/**
 * `/provider remove ID`: removes the person's entry for ID from the global
 * models.json and says what happened, or why nothing was: what is left of ID
 * in the catalogue rebuilt after it (the project's entry, or the built-in or
 * extension provider it overrode), a project entry that still names it, or
 * where a provider that never came from models.json is removed instead.
 */
export async function removeProvider(id: string, where: {global: string; project: string; before: Catalogue; rebuild: () => Promise<Catalogue>}): Promise<{ok: boolean; message: string}> {
	const {global, project, before} = where;
	let removed: boolean;
	try {
		removed = await removeModelsEntry(global, id);
	} catch (error) {
		return {ok: false, message: errorMessage(error)};
	}

	const entry = before.provider(id);
	const inProject = entry?.overriddenBy?.includes(project) === true || (entry?.source.kind === 'models-file' && entry.source.path === project);
	const still = (await where.rebuild()).provider(id);
	const projectNote = inProject ? `; the project's ${project} still has an entry for it: edit that file to remove it there` : '';
	if (removed) {
		const left =
			still === undefined
				? 'it is no longer in the catalogue'
				: still.source.kind === 'models-file'
					? `the project's entry remains`
					: `the ${describeSource(still.source)} provider of that id remains, without your changes`;
		return {ok: true, message: `removed providers.${id} from ${global}: ${left}${projectNote}`};
	}

	if (!entry) {
		const guess = nearestName(
			id,
			before.providers().map(provider => provider.id),
		);
		return {ok: false, message: `no provider "${id}"${guess === undefined ? '' : ` (did you mean ${guess}?)`}; /provider lists them`};
	}

	if (entry.source.kind === 'builtin') return {ok: false, message: `${id} is built into i and cannot be removed; ${global} has no entry for it${projectNote}`};
	if (entry.source.kind === 'extension') {
		return {
			ok: false,
			message:
				`${id} comes from extension ${entry.source.extension}, not from models.json, so there is no entry to remove; an extension's providers go with the extension ` +
				`(the provider package: "providerPackage": false in settings.json, see docs/providers.md, "The provider package"; another: i uninstall or --no-extensions)${projectNote}`,
		};
	}

	return {ok: false, message: `${global} has no entry for ${id}${projectNote}`};
}

function describeSource(source: CatalogueSource): string {
	return source.kind === 'builtin' ? 'built-in' : source.kind === 'extension' ? `extension ${source.extension}'s` : `${source.path}'s`;
}
