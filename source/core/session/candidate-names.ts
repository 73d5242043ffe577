import type {ExtensionCandidate} from '../extensions/sources.js';

/** A candidate's name as the loader decides "first found wins" (reading a package's name runs none of its code); undefined when it has none it can load. */
async function nameOf(candidate: ExtensionCandidate): Promise<string | undefined> {
	const {resolveEntryPoint} = await import('../extensions/entry-point.js');
	return resolveEntryPoint(candidate.path).then(
		entry => entry.name,
		() => undefined,
	);
}

/**
 * The trust-free candidates listed after a project candidate of the same
 * name: whether they load depends on whether the project's does.
 */
export async function waitsForProjectNames(candidates: readonly ExtensionCandidate[]): Promise<Set<ExtensionCandidate>> {
	const waiting = new Set<ExtensionCandidate>();
	const firstProject = candidates.findIndex(candidate => candidate.project);
	if (firstProject === -1 || !candidates.slice(firstProject).some(candidate => !candidate.project)) return waiting;
	const projectNames = new Set<string>();
	for (const candidate of candidates.slice(firstProject)) {
		const name = await nameOf(candidate);
		if (name === undefined) continue;
		if (candidate.project) projectNames.add(name);
		else if (projectNames.has(name)) waiting.add(candidate);
	}

	return waiting;
}

/**
 * `i dev`: its staged build (listed first) stands in for every other copy
 * of the package it builds (installed in a settings file, in
 * `.i/extensions/`, in a folder of extensions), so those are left out
 * rather than reported as not loaded, or as skipped for trust.
 */
export async function withoutDevCopies(candidates: readonly ExtensionCandidate[], devName: string): Promise<ExtensionCandidate[]> {
	const kept: ExtensionCandidate[] = [];
	let seen = false;
	for (const candidate of candidates) {
		const ours = (await nameOf(candidate)) === devName;
		if (ours && seen) continue;
		seen ||= ours;
		kept.push(candidate);
	}

	return kept;
}
