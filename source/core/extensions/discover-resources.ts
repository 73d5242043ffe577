import {resolve} from 'node:path';
import * as z from 'zod/mini';
import {describeIssues} from '../config/describe-issues.js';
import type {ResourcesDiscoverEvent} from './api.js';
import {callHandler, type ExtensionHandler} from './call-handler.js';
import {EVENT_TIMEOUT_MS} from './event-tags.js';
import {MAX_SETTINGS_ENTRIES} from './settings-file.js';

/** One extension's `registerResourcesDiscover` handler, with the folder its relative paths resolve against. */
export interface ResourceDiscoverer {
	extension: string;
	/** The extension's package folder, or the folder its file is in. */
	folder: string;
	handler: ExtensionHandler;
}

export interface DiscoveredPath {
	/** Absolute. */
	path: string;
	/** The extension that named it. */
	extension: string;
}

export interface DiscoveredResources {
	skillPaths: DiscoveredPath[];
	promptPaths: DiscoveredPath[];
	/** Folders of the chat screen's theme files (core/resources/theme-folders.ts). */
	themePaths: DiscoveredPath[];
}

/** Paths of one kind in one answer: the bound of a settings list, which is what an answer stands in for. */
export const MAX_DISCOVERED_PATHS = MAX_SETTINGS_ENTRIES;

const paths = z.optional(z.array(z.string().check(z.minLength(1, 'an entry is an empty path'))).check(z.maxLength(MAX_DISCOVERED_PATHS, `at most ${MAX_DISCOVERED_PATHS} entries`)));
const answerSchema = z.looseObject({skillPaths: paths, promptPaths: paths, themePaths: paths});

/**
 * spec/extensions.md §5: every discoverer is asked (all at once, each under the 10 s
 * of an event) and the answers are merged in priority order. A handler that
 * throws, times out or answers something else than `{skillPaths?,
 * promptPaths?, themePaths?}` is reported with its extension's name and adds
 * nothing; the others still count. Called at start, and again by a reload.
 */
export async function discoverResources(
	discoverers: readonly ResourceDiscoverer[],
	event: ResourcesDiscoverEvent,
	report: (message: string) => void,
	timeoutMs: number = EVENT_TIMEOUT_MS,
): Promise<DiscoveredResources> {
	const found: DiscoveredResources = {skillPaths: [], promptPaths: [], themePaths: []};
	const outcomes = await Promise.all(discoverers.map(async entry => callHandler(entry.handler, event, {tag: 'ResourcesDiscover', extension: entry.extension}, timeoutMs)));
	for (const [index, outcome] of outcomes.entries()) {
		const {extension, folder} = discoverers[index]!;
		if (!outcome.ok) {
			report(`extension ${extension}: ResourcesDiscover handler ${outcome.message}; its paths are left out`);
			continue;
		}

		if (outcome.value === undefined || outcome.value === null) continue;
		const parsed = answerSchema.safeParse(outcome.value);
		if (!parsed.success) {
			report(
				`extension ${extension}: ResourcesDiscover handler answered ${describeIssues(parsed.error.issues, outcome.value)} (an answer is {skillPaths?, promptPaths?, themePaths?}, lists of paths); its paths are left out`,
			);
			continue;
		}

		for (const kind of ['skillPaths', 'promptPaths', 'themePaths'] as const) {
			for (const path of parsed.data[kind] ?? []) found[kind].push({path: resolve(folder, path), extension});
		}
	}

	return found;
}
