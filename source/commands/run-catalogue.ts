import {builtinAuthSubjects, type AuthCatalogue} from '../core/auth/auth-subjects.js';
import type {AuthSubject} from '../core/auth/resolve-credential.js';
import type {BuiltCatalogue} from '../core/catalogue/build-catalogue.js';
import type {Selection} from '../core/catalogue/select-model.js';
import {authSubjectOf} from '../core/catalogue/credential-for.js';
import {checkedDirs} from '../core/config/checked-dirs.js';
import type {ExtensionOptions} from '../core/session/start-extensions.js';
import {resolveWorkspace} from '../core/session/start-plugins.js';

/**
 * The catalogue a run in `cwd` would have: the built-ins, the extensions'
 * and the provider package's `declare({providers})`, models.json over them.
 * The extensions load as for a headless run (project ones, and a project
 * models.json's endpoints, only in a trusted workspace); their problems and models.json's notes go to `report`. A
 * broken models.json is a UsageError.
 */
export async function loadRunCatalogue(options: ExtensionOptions & {cwd?: string | undefined}, report: (message: string) => void): Promise<BuiltCatalogue> {
	const dirs = checkedDirs();
	const workspace = resolveWorkspace(options.cwd);
	const [{startExtensions}, {readTrustedModelsFiles}, {buildCatalogue}] = await Promise.all([
		import('../core/session/start-extensions.js'),
		import('../core/session/trusted-models-files.js'),
		import('../core/catalogue/build-catalogue.js'),
	]);
	const started = await startExtensions(options, {workspace, dirs, takenToolNames: new Map(), report});
	for (const message of started.warnings) report(message);
	const {files, warnings} = await readTrustedModelsFiles({dirs, workspace, trustProject: options.trustProject});
	for (const message of warnings) report(message);
	const built = buildCatalogue(started.catalogue, files);
	for (const message of built.warnings) report(message);
	return built;
}

/** The providers `i auth` knows, and how a run's catalogue selection picks one of them. */
export interface AuthProviders extends AuthCatalogue {
	/** The provider id `--provider` / `--model` / the config's `provider` select: the run's own resolution (select-model.ts); a UsageError as the run's. */
	select(selection: Selection): Promise<string>;
}

/**
 * The providers `i auth` knows from a catalogue: each provider's subject
 * from its private binding (models.json's key variable and the declared
 * one), the core's built-in subjects for ids the catalogue lacks (DeepSeek
 * with the package removed: its stored key can still be managed), and the
 * config's own protocol selection over the entry of its id (what that run
 * would use).
 */
export function catalogueAuth(built: BuiltCatalogue): (selected: AuthSubject | undefined) => AuthProviders {
	return selected => {
		const subjects = new Map<string, AuthSubject>();
		for (const provider of built.catalogue.providers()) {
			const binding = built.bindings.get(provider.id);
			if (binding) subjects.set(provider.id, authSubjectOf(binding));
		}

		for (const subject of builtinAuthSubjects) if (!subjects.has(subject.provider)) subjects.set(subject.provider, subject);
		if (selected) subjects.set(selected.provider, selected);
		return {
			ids: () => [...subjects.keys()],
			lookup: id => subjects.get(id),
			select: async selection => (await import('../core/catalogue/select-model.js')).resolveSelection(selection, built).provider.id,
		};
	};
}
